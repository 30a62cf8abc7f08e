import type { Command } from "./command.js";
import {
  contextCommand,
  deleteCommand,
  editCommand,
  evalCommand,
  exportCommand,
  feedbackCommand,
  forgetCommand,
  importCommand,
  ingestCommand,
  listCommand,
  profileCommand,
  reembedCommand,
  searchCommand,
  serveCommand,
  showCommand,
  skillsCommand,
  statsCommand,
  uiCommand,
  usersCommand,
} from "./command-table.js";
import { createHelpCommand } from "./help-command.js";

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
  skillsCommand,
  exportCommand,
  importCommand,
  reembedCommand,
  statsCommand,
  evalCommand,
  serveCommand,
  uiCommand,
  createHelpCommand(() => COMMANDS),
];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
