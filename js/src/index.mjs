// shuffle-audit as an ES module: the same functions as the CommonJS
// module (index.cjs), which holds them.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const api = require("./index.cjs");

export const {
  AuditResult,
  UserError,
  CHUNK_TRIALS,
  assertFair,
  assertFairPicks,
  assertFairSamples,
  audit,
  auditOrders,
  auditPicks,
  auditSamples,
  defaultTrials,
} = api;
export default api;
