// Breaks openai-only-in-adapter, isomorphic-lib-no-server-packages (openai),
// isomorphic-lib-no-node-builtins (node:path) and isomorphic-lib-stays-isomorphic (lib/engine).
import path from "node:path";
import OpenAI from "openai";
import { runStep } from "../engine/run-step";

export const summarize = { OpenAI, runStep, join: path.join };
