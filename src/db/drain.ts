// Draining a backlog of any size in bounded runs (the cron's housekeeping): each step handles one
// batch picked by a query, so a run that stops anywhere leaves nothing half done and the next run
// carries on where it stopped.

/** What a run may still spend: a wall-clock deadline and a number of D1 statements. */
export interface DrainBudget {
  deadline: number;
  statements: number;
}

/** Repeats `step` (which reports how many rows it handled) until it handles fewer than `batch` or the budget ends. */
export async function drain(
  budget: DrainBudget,
  statementsPerStep: number,
  batch: number,
  step: () => Promise<number>,
): Promise<{ handled: number; done: boolean }> {
  let handled = 0;
  while (budget.statements >= statementsPerStep && Date.now() < budget.deadline) {
    budget.statements -= statementsPerStep;
    const count = await step();
    handled += count;
    if (count < batch) return { handled, done: true };
  }
  return { handled, done: false };
}
