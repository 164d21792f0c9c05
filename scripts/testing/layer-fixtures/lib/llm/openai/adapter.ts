// Compliant: the OpenAI adapter is the one place that imports openai.
import "server-only";
import OpenAI from "openai";

export const client = OpenAI;
