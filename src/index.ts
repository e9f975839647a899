import { createApp } from "./app";
import { runHousekeeping } from "./grading/housekeeping";
import { consumeGradingBatch, consumeGradingDeadLetters, GRADING_DEAD_LETTER_QUEUE } from "./grading/queue";

export { KeyQuota } from "./quota/key-quota";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    if (batch.queue === GRADING_DEAD_LETTER_QUEUE) return consumeGradingDeadLetters(batch, env);
    return consumeGradingBatch(batch, env);
  },
  async scheduled(_controller, env) {
    await runHousekeeping(env);
  },
} satisfies ExportedHandler<Env>;
