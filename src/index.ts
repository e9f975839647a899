import { createApp } from "./app";

export { KeyQuota } from "./quota/key-quota";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
