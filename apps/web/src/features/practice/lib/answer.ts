import type { PracticeExercise, PracticeResultBody } from "@parlons/contract";

type Ids = "result_id" | "card_id" | "ignore_accents" | "answered_at" | "day_start";

/** What an exercise gives back: its kind and the learner's answer (the page adds the ids). */
export type Answer = PracticeResultBody extends infer R ? (R extends unknown ? Omit<R, Ids> : never) : never;

/** The props every exercise gets: its line, a way to play it (at a speed), and where its answer goes. */
export interface ExerciseProps {
  item: PracticeExercise;
  play: (rate?: number) => void;
  onAnswer: (answer: Answer) => void;
}
