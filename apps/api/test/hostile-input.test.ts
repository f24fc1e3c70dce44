import { hostileSuite } from "./helpers/hostile";

// The fuzz of every route, in three files that the test workers share (test/helpers/hostile.ts):
// routes 1, 4, 7… of the sorted table.
await hostileSuite(0, 3);
