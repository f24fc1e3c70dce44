// The texts the signed-in shell (menu, bell, plan) adds to the public ones, picked at build time
// from this folder's JSON files (build/public-texts.ts, SHELL_TEXTS). The same file in every folder.
export { default } from "virtual:shell-texts";
