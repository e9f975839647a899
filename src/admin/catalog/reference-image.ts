// A catalog card's reference image, as the import and the replacement read and stage it.
import { invalidField } from "../../errors/validation";
import { DecodeError } from "../../grading/engine/decode";
import { referenceHash } from "../../grading/engine/reference";
import { imageExtension } from "../../storage/images";
import { readBase64Image } from "../schemas";

/** The reference image's bytes, format and perceptual hash; 400/413 for anything unusable. */
export function readReferenceImage(base64: string) {
  const path = "json.reference_image.base64";
  const { bytes, format } = readBase64Image(base64, path);
  try {
    return {
      bytes,
      format,
      hash: referenceHash(bytes),
      key: `catalog/${crypto.randomUUID()}.${imageExtension(format)}`,
    };
  } catch (error) {
    if (error instanceof DecodeError) {
      throw invalidField(path, error.message);
    }
    throw error;
  }
}

export const stagedReferenceImage = (image: ReturnType<typeof readReferenceImage>) => ({
  key: image.key,
  bytes: image.bytes,
  contentType: `image/${image.format}`,
});
