// The bounded fetch of a submitted image URL (docs/decisions.md §4): https only, the outbound host rules on
// every redirect hop, at most 3 redirects, a streamed 12 MB cap and one deadline for the whole chain.
// Failures are told to the caller in categories (refused URL, refused redirect, HTTP status, too
// large, timeout, unreachable) without where a redirect pointed or what the network said.
import { readCapped } from "./body";
import { checkOutboundUrl, type ImageUrlConfig, imageUrlPolicy } from "./url-policy";

export const MAX_IMAGE_REDIRECTS = 3;

/** The size and time bounds, and the host and port rules of the configuration (README "Security"). */
export interface ImageFetchLimits extends ImageUrlConfig {
  maxBytes: number;
  timeoutMs: number;
}

export type ImageFetchResult =
  | { ok: true; bytes: Uint8Array; contentType: string | null }
  | { ok: false; tooLarge: boolean; reason: string };

const failure = (reason: string, tooLarge = false): ImageFetchResult => ({ ok: false, tooLarge, reason });

export async function fetchImage(
  rawUrl: string,
  limits: ImageFetchLimits,
  fetcher: typeof fetch = fetch,
): Promise<ImageFetchResult> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const policy = imageUrlPolicy(limits);
  let url = rawUrl;
  try {
    for (let hop = 0; ; hop++) {
      const verdict = checkOutboundUrl(url, policy);
      if (!verdict.ok) return failure(hop === 0 ? verdict.reason : "redirects to a URL that is not allowed");
      const response = await fetcher(verdict.url.toString(), {
        redirect: "manual",
        signal,
        headers: { accept: "image/jpeg, image/png, image/webp" },
      });
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        await response.body?.cancel();
        if (hop >= MAX_IMAGE_REDIRECTS) return failure(`redirects more than ${MAX_IMAGE_REDIRECTS} times`);
        url = new URL(response.headers.get("location") ?? "", verdict.url).toString();
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        return failure(`answered HTTP ${response.status}`);
      }
      const declared = Number(response.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        await response.body?.cancel();
        return failure(`is over ${limits.maxBytes / 1024 / 1024} MB`, true);
      }
      const bytes = await readCapped(response.body, limits.maxBytes);
      if (!bytes) return failure(`is over ${limits.maxBytes / 1024 / 1024} MB`, true);
      return { ok: true, bytes, contentType: response.headers.get("content-type") };
    }
  } catch {
    if (signal.aborted) return failure(`did not answer within ${limits.timeoutMs / 1000} s`);
    return failure("could not be reached");
  }
}
