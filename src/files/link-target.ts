/** The record an upload's files are linked to (`/link`): its type, id and field. */
export interface LinkTarget {
  ref: string;
  refId: number;
  field: string;
}
