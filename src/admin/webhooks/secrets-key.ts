// The key webhook signing secrets are sealed with; without it this part of the operator API is off (403).
import { type Config, surfaceUnavailable } from "../../env";

export function secretsKey(config: Config): string {
  if (!config.SECRETS_KEY) throw surfaceUnavailable("webhook secrets");
  return config.SECRETS_KEY;
}
