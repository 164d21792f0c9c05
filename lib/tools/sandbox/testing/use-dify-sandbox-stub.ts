import { afterAll, beforeAll } from "vitest";
import { type DifySandboxStub, findTestPython, startDifySandboxStub } from "./dify-sandbox-stub";

/** What `useDifySandboxStub` gives a describe block. */
export interface DifySandboxStubHandle {
  /** The Python the stand-in runs code with; undefined when this machine has none (skip then). */
  python: string | undefined;
  /** The running stand-in (inside tests only: it starts in beforeAll). */
  readonly stub: DifySandboxStub;
}

/**
 * A dify-sandbox stand-in for the tests of one Vitest describe block: started before them with
 * a Python that has `modules`, closed after them. Tests skip on `!handle.python`.
 */
export function useDifySandboxStub(modules: string[] = []): DifySandboxStubHandle {
  const python = findTestPython(modules);
  let stub: DifySandboxStub | undefined;
  beforeAll(async () => {
    if (python) stub = await startDifySandboxStub({ python });
  });
  afterAll(() => stub?.close());
  return {
    python,
    get stub() {
      if (!stub) throw new Error("the sandbox stand-in runs inside tests only, and only with a Python");
      return stub;
    },
  };
}
