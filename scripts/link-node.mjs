#!/usr/bin/env node
// The root package's postinstall: pnpm rebuilds node_modules/.bin on every install that changes it, so
// the link to the Node.js that setup installed (scripts/node-runtime.mjs) is made again here.
import { linkShim } from "./node-runtime.mjs";

linkShim();
