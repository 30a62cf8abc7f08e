export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, InputError, UsageError } from "./cli-error.js";
export { type CapturedIo, type CliIo, type CliStream, captureIo } from "./cli-io.js";
export { COMMANDS, type Command } from "./commands/index.js";
export { type CapturedRun, runCli, runCliCaptured } from "./run-cli.js";
