/**
 * The OpenAPI description as YAML (`/openapi.yaml`): the same object as `/openapi.json`,
 * dumped without anchors (`noRefs`, so every node is written out as JSON has it),
 * without line folding (descriptions stay one line each) and in the document's own key
 * order rather than sorted.
 */
import yaml from 'js-yaml';
import { openApiDocument } from './document.ts';

export function openApiYaml(): string {
  return yaml.dump(openApiDocument(), { noRefs: true, lineWidth: -1, sortKeys: false });
}
