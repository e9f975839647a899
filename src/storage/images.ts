// Limits and names shared by every place that takes an image in (submissions, catalog references,
// ingested gradings).

/** The largest image accepted, after decoding (docs/decisions.md §4). */
export const MAX_IMAGE_BYTES = 12 * 1024 * 1024;

/** The file extension an R2 key gets for an image format or MIME type (`jpeg`, `image/jpeg` → `jpg`). */
export function imageExtension(formatOrType: string): string {
  const format = formatOrType.replace(/^image\//, "");
  return format === "jpeg" ? "jpg" : format;
}
