/**
 * The time now, given to the services that count days (the habit's today and streak, study
 * reminders, the review deck's day): tests set it, e.g. to two minutes past midnight in Paris,
 * instead of depending on when they run.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
