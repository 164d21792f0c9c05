import { route } from "@/lib/http/route";
import { getWorkflowPublishGate, setWorkflowPublishGate } from "@/lib/services/evaluation-gates";
import { gateBodySchema, gatePathSchema } from "../../schema";

/** The workflow's publish gate: `{ gate: { datasetId, datasetName } | null }`. */
export const GET = route({ auth: "session", params: gatePathSchema }, async ({ principal, params }) => ({
  gate: await getWorkflowPublishGate(principal, params.workflowId),
}));

/** Sets (`{ datasetId }`) or clears (`{ datasetId: null }`) the gate. */
export const PUT = route(
  { auth: "session", params: gatePathSchema, body: gateBodySchema },
  async ({ principal, params, body }) => {
    await setWorkflowPublishGate(principal, params.workflowId, body.datasetId);
    return { gate: await getWorkflowPublishGate(principal, params.workflowId) };
  },
);
