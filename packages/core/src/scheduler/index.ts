export {
  backoffMs,
  type JobHandler,
  type RunJobsOptions,
  type RunJobsReport,
  runDueJobs,
} from "./run-due-jobs.js";
export { Worker } from "./worker.js";
export {
  defaultRetryDelayMs,
  isRetryableWriteError,
  WriteBehind,
  type WriteBehindOptions,
  type WriteFailure,
} from "./write-behind.js";
