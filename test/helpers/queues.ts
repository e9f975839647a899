// A stand-in for a Queue producer binding that keeps what is sent, so a test decides when (and
// whether) the consumer runs instead of the local queue delivering in the background.
export function capturingQueue() {
  const sent: { delivery_id: string }[] = [];
  return {
    sent,
    queue: {
      send: async (body: { delivery_id: string }) => void sent.push(body),
      sendBatch: async (messages: { body: { delivery_id: string } }[]) =>
        void sent.push(...messages.map((m) => m.body)),
    },
  };
}
