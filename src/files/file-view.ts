import { UploadedFile } from './entities/uploaded-file.entity';

/** The uploaded file record of the API. */
export function fileView(f: UploadedFile) {
  return {
    id: f.id,
    name: f.name,
    hash: f.hash,
    ext: f.ext,
    mime: f.mime,
    size: Number(f.size),
    url: `/api/files/${f.id}/content`,
    provider: f.provider,
    folderPath: f.folderPath,
    ...(f.ref ? { ref: f.ref, refId: f.refId, field: f.field } : {}),
    companyId: f.companyId,
    createdAt: f.createdAt,
  };
}
