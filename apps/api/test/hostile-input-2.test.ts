import { hostileSuite } from "./helpers/hostile";

// The fuzz of every route, in three files that the test workers share (test/helpers/hostile.ts):
// routes 2, 5, 8… of the sorted table.
await hostileSuite(1, 3);
