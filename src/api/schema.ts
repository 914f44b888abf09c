// GET /v1/schema/: the OpenAPI document, generated from the code's own catalogs once per dataset.
import { openApiDocument } from './openapi/openapi.ts';
import type { Dataset } from '../query/dataset.ts';

const documents = new WeakMap<Dataset, string>();

export function openApiJson(ds: Dataset): string {
  let text = documents.get(ds);
  if (!text) {
    text = JSON.stringify(
      openApiDocument({ baseUrl: ds.baseUrl, version: ds.manifest.version, pageSize: ds.site.page_size, maxPageSize: ds.site.max_page_size }),
    );
    documents.set(ds, text);
  }
  return text;
}
