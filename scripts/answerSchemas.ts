/**
 * contract/answerSchemas.json: the JSON Schema of every call's answer, made with the TypeScript
 * compiler from the answer type its route table entry carries (`route<Request, Answer>`), so the
 * OpenAPI document (contract/openapi.ts) describes each answer's fields from the one place they are
 * declared. `npm run docs:api` rewrites it; `npm test` fails while the file and the types disagree
 * (its static checks run this with `--check`: the compiler's work is kept out of Vitest's share).
 *
 * An answer type that is a union gives one member per part, each with the statusCodes its own
 * `statusCode` allows, or null when that is any statusCode (`StatusAnswer`'s), so the document can
 * give each HTTP status the parts that answer with it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { AnswerMember, AnswerSchemas } from '../contract/openapi.ts';

type JsonSchema = Record<string, unknown> | boolean;

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const answerSchemasPath = path.join(root, 'contract', 'answerSchemas.json');

function exportOf(checker: ts.TypeChecker, source: ts.SourceFile, name: string): ts.Symbol {
  const found = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((symbol) => symbol.name === name);
  if (!found) throw new Error(`${source.fileName} exports no ${name}`);
  return found;
}

function makeAnswerSchemas(): AnswerSchemas {
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, root);
  const routesFile = path.join(root, 'contract', 'routes.ts');
  const program = ts.createProgram([routesFile], config.options);
  const checker = program.getTypeChecker();
  const source = (file: string) => program.getSourceFile(path.join(root, 'contract', file))!;

  /** A statusCode type's numbers (a literal or a union of them), or null for any other type. */
  const literalsOf = (type: ts.Type): number[] | null => {
    const parts = type.isUnion() ? type.types : [type];
    return parts.every((part) => part.isNumberLiteral()) ? parts.map((part) => part.value).sort((a, b) => a - b) : null;
  };
  const anyStatusCode = literalsOf(checker.getDeclaredTypeOfSymbol(exportOf(checker, source('shared/statusCodes.ts'), 'StatusCode')))!.join();

  const withoutUndefined = (type: ts.Type): ts.Type[] => (type.isUnion() ? type.types : [type]).filter((part) => !(part.flags & ts.TypeFlags.Undefined));

  function schemaOf(type: ts.Type, seen: readonly ts.Type[]): JsonSchema {
    const name = checker.typeToString(type);
    if (seen.includes(type)) throw new Error(`answerSchemas: ${name} refers to itself`);
    const inner = [...seen, type];
    const flags = type.flags;
    if (flags & ts.TypeFlags.Never) return false;
    // Any JSON value (the content API's documents, an experiment's variables).
    if (flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return {};
    if (type.isStringLiteral() || type.isNumberLiteral()) return { const: type.value };
    if (flags & ts.TypeFlags.BooleanLiteral) return { const: name === 'true' };
    if (flags & ts.TypeFlags.String) return { type: 'string' };
    if (flags & ts.TypeFlags.Number) return { type: 'number' };
    if (flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (flags & ts.TypeFlags.Null) return { type: 'null' };
    if (type.isUnion()) {
      const parts = withoutUndefined(type);
      if (parts.length === 1) return schemaOf(parts[0]!, inner);
      // `boolean` is the union true | false; literals of one kind are an enum.
      const booleans = parts.filter((part) => part.flags & ts.TypeFlags.BooleanLiteral);
      const rest = booleans.length === 2 ? parts.filter((part) => !booleans.includes(part)) : parts;
      const schemas = [...(booleans.length === 2 ? [{ type: 'boolean' }] : []), ...rest.map((part) => schemaOf(part, inner))] as Record<string, unknown>[];
      if (schemas.length === 1) return schemas[0]!;
      if (schemas.every((schema) => 'const' in schema || schema.type === 'null')) {
        return { enum: schemas.map((schema) => ('const' in schema ? schema.const : null)) };
      }
      if (schemas.every((schema) => Object.keys(schema).length === 1 && typeof schema.type === 'string')) {
        return { type: schemas.map((schema) => schema.type) };
      }
      return { anyOf: schemas };
    }
    if (checker.isArrayType(type)) {
      return { type: 'array', items: schemaOf(checker.getTypeArguments(type as ts.TypeReference)[0]!, inner) };
    }
    if (flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) {
      if (type.getCallSignatures().length > 0) throw new Error(`answerSchemas: ${name} is a function, not JSON`);
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const property of checker.getPropertiesOfType(type)) {
        const parts = withoutUndefined(checker.getTypeOfSymbol(property));
        const schema = parts.length === 1 ? schemaOf(parts[0]!, inner) : schemaOf(checker.getTypeOfSymbol(property), inner);
        const description = ts.displayPartsToString(property.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim();
        properties[property.name] = description && typeof schema === 'object' ? { ...schema, description } : schema;
        if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.name);
      }
      const index = checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & ts.TypeFlags.String);
      return {
        type: 'object',
        ...(Object.keys(properties).length > 0 ? { properties } : {}),
        ...(required.length > 0 ? { required } : {}),
        ...(index ? { additionalProperties: schemaOf(index.type, inner) } : {}),
      };
    }
    throw new Error(`answerSchemas: no JSON Schema for ${name}`);
  }

  function membersOf(answer: ts.Type): AnswerMember[] {
    return withoutUndefined(answer).flatMap((member) => (member.isUnion() ? member.types : [member])).map((member) => {
      const statusCode = member.getProperty('statusCode');
      const codes = statusCode ? literalsOf(checker.getTypeOfSymbol(statusCode)) : null;
      return { statusCodes: codes && codes.join() !== anyStatusCode ? codes : null, schema: schemaOf(member, []) };
    });
  }

  const schemas: AnswerSchemas = {};
  const tables = checker.getTypeOfSymbol(exportOf(checker, program.getSourceFile(routesFile)!, 'routeTables'));
  for (const feature of checker.getPropertiesOfType(tables)) {
    for (const entry of checker.getPropertiesOfType(checker.getTypeOfSymbol(feature))) {
      const types = checker.getTypeOfSymbol(checker.getTypeOfSymbol(entry).getProperty('types')!);
      const answer = checker.getNonNullableType(types).getProperty('answer');
      if (!answer) throw new Error(`answerSchemas: ${entry.name} carries no answer type`);
      schemas[entry.name] = membersOf(checker.getTypeOfSymbol(answer));
    }
  }
  return schemas;
}

// `--check` (npm test's static checks): fail while the file and the types disagree; else rewrite it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rendered = `${JSON.stringify(makeAnswerSchemas(), null, 2)}\n`;
  if (!process.argv.includes('--check')) writeFileSync(answerSchemasPath, rendered);
  else if (readFileSync(answerSchemasPath, 'utf8') !== rendered) {
    console.error('contract/answerSchemas.json does not match the answer types: run npm run docs:api.');
    process.exit(1);
  }
}
