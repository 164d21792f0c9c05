"use client";

import { Alert } from "@/components/ui/alert";
import { NativeSelect } from "@/components/ui/native-select";
import { optionLabel } from "@/lib/workflow/field-labels";
import { useServerCapabilities } from "../../server-capabilities";
import type { ControlProps } from "../schema-form";

/** A choice among a schema's `enum` values, labelled in words where the stored value is not. */
export function EnumSelect({
  name,
  control,
  testId,
  value,
  options,
  onChange,
}: {
  name: string;
  control: ControlProps;
  testId: string;
  value: unknown;
  options: unknown[];
  onChange: (value: unknown) => void;
}) {
  return (
    <NativeSelect
      {...control}
      data-testid={testId}
      value={String(value ?? "")}
      onChange={(event) => onChange(options.find((option) => String(option) === event.target.value))}
    >
      {options.map((option) => (
        <option key={String(option)} value={String(option)}>
          {optionLabel(name, option)}
        </option>
      ))}
    </NativeSelect>
  );
}

/**
 * The code node's language. Python runs on the server's code sandbox service; where the server has
 * none, the choice says so at once rather than at the first run.
 */
export function LanguageSelect(props: Parameters<typeof EnumSelect>[0]) {
  const { pythonSandbox } = useServerCapabilities();
  return (
    <>
      <EnumSelect {...props} />
      {props.value === "python3" && !pythonSandbox && (
        <Alert tone="warning" data-testid="python-sandbox-missing">
          <p>
            This server has no code sandbox service for Python, so this node fails when it runs. An administrator sets{" "}
            <code>TRELLIS_CODE_SANDBOX_URL</code> to a dify-sandbox.
          </p>
        </Alert>
      )}
    </>
  );
}
