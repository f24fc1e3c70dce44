// Writes docs/architecture.md from the modules' declarations (scripts/architecture.ts).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { appModules } from "../src/app";
import { architecturePath, architectureText } from "./architecture";

writeFileSync(architecturePath, architectureText(appModules));
console.log(`written: ${path.relative(process.cwd(), architecturePath)}`);
