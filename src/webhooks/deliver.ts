// One delivery attempt: the body (the stored payload plus `sent_at` for public events), the
// headers (signed for public events), a POST that follows no redirect and gives up after the
// timeout, and what came of it.
import { checkOutboundUrl, type UrlPolicy } from "../net/url-policy";
import { signatureHeader } from "./signature";

export interface DeliveryRequest {
  id: string;
  kind: "public" | "partner";
  event: string;
  url: string;
  payload: Record<string, unknown>;
  /** Public events: the client's current signing secret first, then one still in its grace period. */
  secrets: string[];
}

export interface AttemptResult {
  status: number | null;
  latencyMs: number;
  error: string | null;
  delivered: boolean;
  /** 410 Gone: the receiver asks not to be called again for this delivery. */
  gone: boolean;
}

export async function attemptDelivery(
  request: DeliveryRequest,
  options: { timeoutMs: number; policy: UrlPolicy; now?: number; fetcher?: typeof fetch },
): Promise<AttemptResult> {
  const started = performance.now();
  const finish = (status: number | null, error: string | null): AttemptResult => ({
    status,
    latencyMs: Math.round(performance.now() - started),
    error,
    delivered: status !== null && status >= 200 && status < 300,
    gone: status === 410,
  });
  const verdict = checkOutboundUrl(request.url, options.policy);
  if (!verdict.ok) return finish(null, `URL refused: ${verdict.reason}`);
  const now = options.now ?? Date.now();
  const timestamp = Math.floor(now / 1000);
  const body = JSON.stringify(
    request.kind === "public" ? { ...request.payload, sent_at: new Date(now).toISOString() } : request.payload,
  );
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "svc-webhooks/1",
    "svc-event": request.event,
    "svc-delivery-id": request.id,
    "svc-timestamp": String(timestamp),
  };
  if (request.kind === "public") headers["svc-signature"] = await signatureHeader(request.secrets, timestamp, body);
  try {
    const response = await (options.fetcher ?? fetch)(verdict.url.toString(), {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 300 && response.status < 400) return finish(response.status, "redirects are not followed");
    return finish(response.status, response.ok ? null : `HTTP ${response.status}`);
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    if (name === "TimeoutError" || name === "AbortError")
      return finish(null, `no answer within ${options.timeoutMs} ms`);
    return finish(null, `network error (${error instanceof Error ? error.message : String(error)})`);
  }
}
