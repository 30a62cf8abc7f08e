import type { ConformanceSpec } from "../spec.js";
import { atomicity } from "./atomicity.js";
import { conditionalWrite } from "./conditional-write.js";
import { count } from "./count.js";
import { edges } from "./edges.js";
import { forgetUser } from "./forget-user.js";
import { get } from "./get.js";
import { getVectors } from "./get-vectors.js";
import { history } from "./history.js";
import { insert } from "./insert.js";
import { jobs } from "./jobs.js";
import { kv } from "./kv.js";
import { scanFilters } from "./scan-filters.js";
import { scanOrder } from "./scan-order.js";
import { scope } from "./scope.js";
import { settings } from "./settings.js";
import { textSearch } from "./text-search.js";
import { usersStats } from "./users-stats.js";
import { vectorSearch } from "./vector-search.js";
import { vectorSearchLarge } from "./vector-search-large.js";
import { write } from "./write.js";

/** Every operation's tests, in the order they are declared. */
export const SPECS: readonly ConformanceSpec[] = [
  atomicity,
  conditionalWrite,
  count,
  edges,
  forgetUser,
  getVectors,
  get,
  history,
  insert,
  jobs,
  kv,
  scanFilters,
  scanOrder,
  scope,
  settings,
  textSearch,
  usersStats,
  vectorSearchLarge,
  vectorSearch,
  write,
];
