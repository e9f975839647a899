// Limits and names shared by every place that takes an image in (submissions, catalog references,
// ingested gradings), and the one way images are staged in R2 beside the rows that name them.

/** The largest image accepted, after decoding (docs/decisions.md §4). */
export const MAX_IMAGE_BYTES = 12 * 1024 * 1024;

/** The file extension an R2 key gets for an image format or MIME type (`jpeg`, `image/jpeg` → `jpg`). */
export function imageExtension(formatOrType: string): string {
  const format = formatOrType.replace(/^image\//, "");
  return format === "jpeg" ? "jpg" : format;
}

/** An image to put in R2 under `key`; null stands for a face that has none. */
export interface StagedImage {
  key: string;
  bytes: Uint8Array;
  contentType: string;
}

export interface StagedWrite<T> {
  /** Writes the rows that name the images; throws when they could not be written. */
  write: () => Promise<T>;
  /**
   * Given, the rows are written alongside the puts rather than after them (one round trip less on a
   * hot path); this removes the written rows again when a put failed.
   */
  undoWrite?: (written: T) => Promise<unknown>;
}

/**
 * Puts the images in R2 and writes the rows that name them, leaving nothing half-written: when a put
 * or the write fails, every staged image is deleted again (and, written alongside, the rows undone)
 * and the first failure is thrown, the write's before the puts'.
 */
export async function writeWithStagedImages<T>(
  bucket: R2Bucket,
  images: readonly (StagedImage | null)[],
  { write, undoWrite }: StagedWrite<T>,
): Promise<T> {
  const staged = images.filter((image) => image !== null);
  const removeImages = async () => {
    if (staged.length > 0) await bucket.delete(staged.map((image) => image.key));
  };
  const putAll = async () => {
    const puts = await Promise.allSettled(
      staged.map((image) => bucket.put(image.key, image.bytes, { httpMetadata: { contentType: image.contentType } })),
    );
    const failed = puts.find((put) => put.status === "rejected");
    if (failed) throw failed.reason;
  };

  if (undoWrite) {
    const [written, stored] = await Promise.allSettled([write(), putAll()]);
    if (written.status === "rejected") {
      await removeImages();
      throw written.reason;
    }
    if (stored.status === "rejected") {
      await removeImages();
      await undoWrite(written.value);
      throw stored.reason;
    }
    return written.value;
  }
  try {
    await putAll();
    return await write();
  } catch (error) {
    await removeImages();
    throw error;
  }
}
