// Runs one benchmark row in its own process (so memory and descriptor counts start clean) and writes its result.
import { writeFileSync } from "node:fs";
import { ROWS } from "./rows.js";

const [id, outFile, ...flags] = process.argv.slice(2);
const row = ROWS.find((candidate) => candidate.id === id);
if (!row || !outFile) {
  console.error(`usage: run-row.ts <${ROWS.map((r) => r.id).join("|")}> <out.json> [--quick]`);
  process.exit(2);
}
const result = await row.run({ quick: flags.includes("--quick") });
writeFileSync(outFile, JSON.stringify(result));
