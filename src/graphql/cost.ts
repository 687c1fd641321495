/**
 * Static demand analysis of one validated GraphQL operation, before anything executes:
 * its cost under the IBM cost directives the schema carries (`@cost` weights on fields and
 * arguments; `@listSize` sizes from the slicing argument, applied to the sized fields, or
 * assumed), its depth and its alias count. Fragments are measured once per place they can
 * be sized differently and reused, so a document whose fragments fan out exponentially is
 * measured in linear time (and then rejected for its exponential cost).
 */
import {
  getNamedType,
  getNullableType,
  getOperationAST,
  isCompositeType,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { LIMITS } from '../core/limits.ts';
import { COST } from './schema.ts';

export interface Demand {
  cost: number;
  depth: number;
  aliases: number;
}

type Variables = Readonly<Record<string, unknown>> | null | undefined;
/** Child field name → the list size its parent's `@listSize(sizedFields:)` gives it. */
type Sizes = ReadonlyMap<string, number>;

const NONE: Sizes = new Map();
const INTROSPECTION = new Set(['__schema', '__type']);

function directive(nodes: readonly ConstDirectiveNode[] | undefined, name: string): ConstDirectiveNode | undefined {
  return nodes?.find((d) => d.name.value === name);
}

function directiveArgument(node: ConstDirectiveNode | undefined, name: string): ValueNode | undefined {
  return node?.arguments?.find((a) => a.name.value === name)?.value;
}

const stringsOf = (value: ValueNode | undefined): string[] =>
  value?.kind === Kind.LIST ? value.values.flatMap((v) => (v.kind === Kind.STRING ? [v.value] : [])) : [];

/** A field's `@cost` weight, or the IBM default: 1 for object-valued fields, 0 for scalars. */
function weightOf(field: GraphQLField<unknown, unknown>): number {
  const weight = directiveArgument(directive(field.astNode?.directives, 'cost'), 'weight');
  if (weight?.kind === Kind.STRING) return Number(weight.value);
  return isCompositeType(getNamedType(field.type)) ? COST.object : 0;
}

/** Weights of the `@cost` arguments the operation gives (IBM: an argument costs when present). */
function argumentWeights(field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  let total = 0;
  for (const arg of field.args) {
    const weight = directiveArgument(directive(arg.astNode?.directives, 'cost'), 'weight');
    if (weight?.kind === Kind.STRING && node.arguments?.some((a) => a.name.value === arg.name)) total += Number(weight.value);
  }
  return total;
}

/** An integer argument's value: literal, variable, or the argument's default. Clamped to a page. */
function sliceOf(field: GraphQLField<unknown, unknown>, node: FieldNode, name: string, variables: Variables): number | undefined {
  const given = node.arguments?.find((a) => a.name.value === name)?.value;
  // SDL-built schemas keep argument defaults as literals.
  const fallback = field.args.find((a) => a.name === name)?.default;
  let value: unknown = fallback?.literal?.kind === Kind.INT ? Number(fallback.literal.value) : fallback?.value;
  if (given?.kind === Kind.INT) value = Number(given.value);
  if (given?.kind === Kind.VARIABLE) value = variables?.[given.name.value] ?? value;
  // Out-of-range values fail at execution with their own message; cost them as the largest page.
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(Math.trunc(value), 0), LIMITS.pageSizeMax) : undefined;
}

class Measure {
  private readonly schema: GraphQLSchema;
  private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  private readonly variables: Variables;
  private readonly memo = new Map<string, Demand>();

  constructor(schema: GraphQLSchema, document: DocumentNode, variables: Variables) {
    this.schema = schema;
    this.variables = variables;
    this.fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  }

  selectionSet(set: SelectionSetNode, parent: GraphQLCompositeType, sizes: Sizes): Demand {
    const total: Demand = { cost: 0, depth: 0, aliases: 0 };
    const add = (part: Demand, alias = 0) => {
      total.cost += part.cost;
      total.depth = Math.max(total.depth, part.depth);
      total.aliases += part.aliases + alias;
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const alias = selection.alias ? 1 : 0;
        if (name === '__typename') add({ cost: 0, depth: 1, aliases: 0 }, alias);
        else if (INTROSPECTION.has(name)) add({ cost: COST.introspection, depth: 1, aliases: 0 }, alias);
        else if (isObjectType(parent) || isInterfaceType(parent)) {
          const field = parent.getFields()[name];
          if (field) add(this.field(selection, field, sizes.get(name)), alias);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) add(this.selectionSet(selection.selectionSet, type, sizes));
      } else {
        add(this.fragment(selection.name.value, sizes));
      }
    }
    return total;
  }

  private fragment(name: string, sizes: Sizes): Demand {
    const key = `${name}\u0000${JSON.stringify([...sizes])}`;
    const known = this.memo.get(key);
    if (known) return known;
    const fragment = this.fragments.get(name);
    const type = fragment && this.schema.getType(fragment.typeCondition.name.value);
    // Cycles are a validation error; measuring runs after validation, but stays safe without it.
    this.memo.set(key, { cost: 0, depth: 0, aliases: 0 });
    const demand = fragment && type && isCompositeType(type) ? this.selectionSet(fragment.selectionSet, type, sizes) : { cost: 0, depth: 0, aliases: 0 };
    this.memo.set(key, demand);
    return demand;
  }

  private field(node: FieldNode, field: GraphQLField<unknown, unknown>, sizedBy: number | undefined): Demand {
    const own = weightOf(field) + argumentWeights(field, node);
    const listSize = directive(field.astNode?.directives, 'listSize');
    const slicing = stringsOf(directiveArgument(listSize, 'slicingArguments'));
    const assumed = directiveArgument(listSize, 'assumedSize');
    const sliced = slicing.map((name) => sliceOf(field, node, name, this.variables)).find((v) => v !== undefined);
    const size = sliced ?? (assumed?.kind === Kind.INT ? Number(assumed.value) : undefined) ?? sizedBy ?? LIMITS.pageSizeMax;
    const sizedFields = stringsOf(directiveArgument(listSize, 'sizedFields'));
    const isList = isListType(getNullableType(field.type));
    // With sized fields the size applies to them, not to this field's own value.
    const multiplier = isList && sizedFields.length === 0 ? size : 1;
    if (!node.selectionSet) return { cost: own * multiplier, depth: 1, aliases: 0 };
    const type = getNamedType(field.type);
    if (!isCompositeType(type)) return { cost: own * multiplier, depth: 1, aliases: 0 };
    const childSizes: Sizes = sizedFields.length > 0 ? new Map(sizedFields.map((f) => [f, size])) : NONE;
    const child = this.selectionSet(node.selectionSet, type, childSizes);
    return { cost: (own + child.cost) * multiplier, depth: 1 + child.depth, aliases: child.aliases };
  }
}

/** Demand of the operation a request selects; undefined when the document has no such operation. */
export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Variables,
): Demand | undefined {
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return undefined;
  return new Measure(schema, document, variables).selectionSet(operation.selectionSet, root, NONE);
}
