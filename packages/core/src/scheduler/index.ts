export {
  type JobControl,
  type JobFailure,
  type JobHandler,
  type JobProgress,
  type RunJobsOptions,
  type RunJobsReport,
  runDueJobs,
  UNCONTROLLED,
} from "./run-due-jobs.js";
export { type FlushOptions, type RunControl, Worker } from "./worker.js";
export { WriteBehind, type WriteBehindOptions, type WriteFailure } from "./write-behind.js";
