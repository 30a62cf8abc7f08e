import type { Command } from "./command.js";
import { contextCommand } from "./context-command.js";
import { deleteCommand } from "./delete-command.js";
import { editCommand } from "./edit-command.js";
import { evalCommand } from "./eval-command.js";
import { exportCommand } from "./export-command.js";
import { feedbackCommand } from "./feedback-command.js";
import { forgetCommand } from "./forget-command.js";
import { createHelpCommand } from "./help-command.js";
import { importCommand } from "./import-command.js";
import { ingestCommand } from "./ingest-command.js";
import { listCommand } from "./list-command.js";
import { profileCommand } from "./profile-command.js";
import { searchCommand } from "./search-command.js";
import { serveCommand } from "./serve-command.js";
import { showCommand } from "./show-command.js";
import { statsCommand } from "./stats-command.js";
import { uiCommand } from "./ui-command.js";
import { usersCommand } from "./users-command.js";

export type { Command, CommandContext } from "./command.js";
export { commandHelpText, overviewText } from "./help-command.js";

/** Every `engram` command, in the order help lists them. */
export const COMMANDS: readonly Command[] = [
  ingestCommand,
  searchCommand,
  contextCommand,
  profileCommand,
  feedbackCommand,
  usersCommand,
  listCommand,
  showCommand,
  editCommand,
  deleteCommand,
  forgetCommand,
  exportCommand,
  importCommand,
  statsCommand,
  evalCommand,
  serveCommand,
  uiCommand,
  createHelpCommand(() => COMMANDS),
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
