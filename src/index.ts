import { createApp } from "./app";
import { logEvent } from "./errors/log";
import { runHousekeeping } from "./grading/housekeeping";
import {
  consumeGradingBatch,
  consumeGradingDeadLetters,
  GRADING_DEAD_LETTER_QUEUE,
  GRADING_QUEUE,
} from "./grading/queue";
import {
  consumeWebhookBatch,
  consumeWebhookDeadLetters,
  WEBHOOKS_DEAD_LETTER_QUEUE,
  WEBHOOKS_QUEUE,
} from "./webhooks/consumer";

export { KeyQuota } from "./quota/key-quota";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    switch (batch.queue) {
      case GRADING_QUEUE:
        return consumeGradingBatch(batch, env);
      case GRADING_DEAD_LETTER_QUEUE:
        return consumeGradingDeadLetters(batch, env);
      case WEBHOOKS_QUEUE:
        return consumeWebhookBatch(batch, env);
      case WEBHOOKS_DEAD_LETTER_QUEUE:
        return consumeWebhookDeadLetters(batch, env);
      default:
        // A queue this Worker does not own: leave the messages for a later redelivery.
        logEvent("error", { queue: batch.queue, problem: "no consumer for this queue" });
        batch.retryAll();
    }
  },
  async scheduled(_controller, env) {
    await runHousekeeping(env);
  },
} satisfies ExportedHandler<Env>;
