import { hostileSuite } from "./helpers/hostile";

// The fuzz of every route, in three files that the test workers share (test/helpers/hostile.ts):
// routes 3, 6, 9… of the sorted table.
await hostileSuite(2, 3);
