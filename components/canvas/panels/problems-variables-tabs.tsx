"use client";

import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useEditorStore, useEditorStoreApi } from "../store/editor-store-context";
import { ProblemsPanel } from "./problems-panel";
import { VariablesPanel } from "./variables-panel";

/** The bottom panel's Problems and Variables tabs (the toolbar's Problems button opens the first). */
export function ProblemsVariablesTabs() {
  const store = useEditorStoreApi();
  const panel = useEditorStore((state) => state.bottomPanel);
  return (
    <Tabs
      value={panel === "variables" ? "variables" : "problems"}
      onValueChange={(value) => store.getState().setBottomPanel(value === "variables" ? "variables" : "problems")}
    >
      <TabsList aria-label="Bottom panel">
        <TabsTrigger value="problems" data-testid="bottom-tab-problems">
          Problems
        </TabsTrigger>
        <TabsTrigger value="variables" data-testid="bottom-tab-variables">
          Variables
        </TabsTrigger>
      </TabsList>
      <TabsContent value="problems">
        <ProblemsPanel />
      </TabsContent>
      <TabsContent value="variables">
        <VariablesPanel />
      </TabsContent>
    </Tabs>
  );
}
