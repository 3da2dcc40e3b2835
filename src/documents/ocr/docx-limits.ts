import { unzipSync } from 'fflate';

/** Entries smaller than this once inflated are harmless whatever their compression ratio. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/**
 * Reads a DOCX's zip directory (nothing is inflated) and refuses it when its entries together inflate
 * to more than `maxBytes`, or when an entry of over 1 MiB is compressed more than `maxRatio` to one.
 */
export function checkDocxDirectory(content: Buffer, maxBytes: number, maxRatio: number): void {
  let total = 0;
  let tooDense: { name: string; ratio: number } | undefined;
  try {
    unzipSync(content, {
      filter: ({ name, size, originalSize }) => {
        total += originalSize;
        const ratio = originalSize / Math.max(size, 1);
        if (originalSize > RATIO_FLOOR_BYTES && ratio > maxRatio) tooDense ??= { name, ratio };
        return false;
      },
    });
  } catch (err) {
    throw new Error(`DOCX could not be read: ${(err as Error).message}`);
  }
  if (total > maxBytes) {
    throw new Error(
      `DOCX inflates to ${total} bytes, over the limit of ${maxBytes} bytes (OCR_DOCX_MAX_INFLATED_BYTES)`,
    );
  }
  if (tooDense) {
    throw new Error(
      `DOCX part ${tooDense.name} is compressed ${Math.round(tooDense.ratio)} to 1, over the limit of ` +
        `${maxRatio} (OCR_DOCX_MAX_RATIO)`,
    );
  }
}
