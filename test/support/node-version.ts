/**
 * Setup file of every test file: test/run.js runs vitest under several Node binaries and names
 * the version it means in CODEGEN_TEST_NODE_VERSION, so a run that claims Node 22 cannot quietly
 * be Node 20 (vitest's workers are forked from the binary that started vitest).
 */
const expected = process.env.CODEGEN_TEST_NODE_VERSION;
if (expected !== undefined && process.version !== expected) {
  throw new Error(`this test worker runs Node ${process.version}, but test/run.js started the run for Node ${expected}`);
}
