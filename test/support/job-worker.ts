/**
 * A queue worker for the multi-process test: `node --conditions=@engram/source --import tsx
 * job-worker.ts <db> <leaseMs> <jobMs>`. Prints "ready", waits for a line on stdin, then runs due `work`
 * jobs until none is left, printing "start <id>" and "end <id>" around each job's `jobMs` of work.
 */
import { runDueJobs, systemClock } from "@engram/core/integration";
import { sqliteStorage } from "@engram/core/sqlite";

const [dbPath, leaseMs = "300", jobMs = "100"] = process.argv.slice(2);
if (!dbPath) throw new Error("usage: job-worker.ts <db path> <leaseMs> <jobMs>");

const storage = sqliteStorage({ path: dbPath });
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.destroy();
await runDueJobs({
  storage,
  clock: systemClock,
  leaseMs: Number(leaseMs),
  handlers: {
    work: async (job) => {
      process.stdout.write(`start ${job.id}\n`);
      await new Promise((resolve) => setTimeout(resolve, Number(jobMs)));
      process.stdout.write(`end ${job.id}\n`);
    },
  },
});
await storage.close();
