/**
 * How the settings page edits each key: the control follows the catalog's
 * generated definition (type, listed choices, range), and the value's JSON
 * type for a key the catalog of this build does not describe.
 */
import type { SettingDefinition } from "../../shared/api/settings.generated";

export type Field =
  | { kind: "toggle" }
  | { kind: "number"; min?: number; max?: number; integer: boolean }
  | { kind: "text"; maxLength?: number; nullable: boolean }
  | { kind: "select"; options: readonly (string | number)[] }
  | { kind: "json" };

interface Schema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

function schemaOf(definition: SettingDefinition): Schema {
  const schema = definition.schema;
  return typeof schema === "object" && schema !== null ? (schema as Schema) : {};
}

function choices(schema: Schema): (string | number)[] | undefined {
  const options = schema.enum?.filter((o): o is string | number => typeof o === "string" || typeof o === "number");
  return options?.length ? options : undefined;
}

export function fieldFor(definition: SettingDefinition | undefined, value: unknown): Field {
  if (!definition) {
    if (typeof value === "boolean") return { kind: "toggle" };
    if (typeof value === "number") return { kind: "number", integer: false };
    if (typeof value === "string") return { kind: "text", nullable: false };
    return { kind: "json" };
  }
  const schema = schemaOf(definition);
  switch (definition.type) {
    case "toggle":
      return { kind: "toggle" };
    case "select":
    case "unknown": {
      const options = choices(schema);
      return options ? { kind: "select", options } : { kind: "json" };
    }
    case "number":
      return { kind: "number", min: schema.minimum, max: schema.maximum, integer: schema.type === "integer" };
    case "text":
      return { kind: "text", maxLength: schema.maxLength, nullable: definition.accepted.endsWith("or null") };
    default:
      return { kind: "json" };
  }
}

/** Parses an edited text back into the value to send; throws with a reason a person can act on. */
export function parseField(field: Field, text: string): unknown {
  switch (field.kind) {
    case "number": {
      const figure = Number(text);
      if (text.trim() === "" || !Number.isFinite(figure)) throw new Error("Enter a number.");
      return figure;
    }
    case "text":
      return field.nullable && text === "" ? null : text;
    case "select":
      return field.options.find((o) => String(o) === text) ?? text;
    case "json":
      try {
        return JSON.parse(text);
      } catch {
        throw new Error("This is not valid JSON.");
      }
    case "toggle":
      return text === "true";
  }
}

export function textOf(field: Field, value: unknown): string {
  if (field.kind === "json") return JSON.stringify(value, null, 1);
  return value === null || value === undefined ? "" : String(value);
}

/**
 * How a select shows one of its values: a word or words joined by `_` or `-` read as words
 * ("read_only" as "Read only"); a file name, a number or anything else as it is. The value sent
 * stays the catalog's.
 */
export function optionLabel(option: string | number): string {
  if (typeof option === "number" || !/^[a-z][a-z0-9]*([_-][a-z0-9]+)*$/.test(option)) return String(option);
  const words = option.replace(/[_-]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
