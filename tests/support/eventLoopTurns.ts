// Whether work hands the event loop back, counted rather than timed: a busy machine cannot change the answer.

/**
 * How many turns of the event loop other work got while `work` ran: a callback that re-queues itself with
 * setImmediate counts each turn it is given.
 */
export async function turnsGivenDuring<T>(work: () => Promise<T>): Promise<{ turns: number; result: T }> {
  let turns = 0;
  let watching = true;
  const tick = () => {
    if (!watching) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    const result = await work();
    return { turns, result };
  } finally {
    watching = false;
  }
}
