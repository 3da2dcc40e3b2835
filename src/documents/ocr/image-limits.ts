import { imageSize } from 'image-size';

/** Reads an image's dimensions from its header (nothing is decoded) and refuses it above `maxPixels`. */
export function checkImagePixels(content: Buffer, maxPixels: number): void {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(content);
  } catch (err) {
    throw new Error(`Image could not be read: ${(err as Error).message}`);
  }
  const { width = 0, height = 0 } = size;
  if (!width || !height) throw new Error('Image could not be read: no dimensions in its header');
  if (width * height > maxPixels) {
    throw new Error(
      `Image is ${width}×${height} pixels, over the limit of ${maxPixels} pixels (OCR_IMAGE_MAX_PIXELS)`,
    );
  }
}
