// Resources: a container as markdown, and the documents that help an assistant use the tools.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError, type SvcClient } from '../../sdk/src/index.ts';
import { containerMarkdown } from './container-markdown.ts';
import { LIST_DISPLAY_COLUMNS, QUERY_GUIDANCE } from './docs.ts';
import { milestoneGlossaryMarkdown } from './glossary.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerResources(server: McpServer, client: SvcClient): void {
  server.registerResource(
    'container',
    new ResourceTemplate('svc://container/{id}', { list: undefined }),
    { title: 'Container summary', description: "A tracked container in markdown: status, pickup (holds, fees, last free day), milestones, shipment and timeline. {id} is the container's id.", mimeType: 'text/markdown' },
    async (uri, { id }) => {
      const containerId = String(id);
      if (!UUID.test(containerId)) throw new McpError(ErrorCode.InvalidParams, `Not a container id: ${containerId} (expected a UUID)`);
      try {
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await containerMarkdown(client, containerId) }] };
      } catch (err) {
        // Resource reads answer with protocol errors: -32002 is MCP's "resource not found".
        if (err instanceof NotFoundError) throw new McpError(-32002, `No container with id ${containerId} in this account.`);
        throw new McpError(ErrorCode.InternalError, err instanceof Error ? err.message : String(err));
      }
    },
  );
  const document = (name: string, uri: string, title: string, description: string, mimeType: string, text: () => string) =>
    server.registerResource(name, uri, { title, description, mimeType }, async () => ({ contents: [{ uri, mimeType, text: text() }] }));
  document('milestone-glossary', 'svc://docs/milestone-glossary', 'Milestone glossary', 'Every event svc records and what it means; container statuses; holds, fees, last free day; estimated vs actual times.', 'text/markdown', milestoneGlossaryMarkdown);
  document('mcp-query-guidance', 'svc://docs/mcp-query-guidance', 'Which tool for which question', 'Playbooks: the tool to call for each kind of question, and what to read in its answer.', 'text/markdown', () => QUERY_GUIDANCE);
  document('list-display-columns', 'svc://docs/list-display-columns', 'Columns for list results', 'For each list tool, the item fields to show as table columns.', 'application/json', () => JSON.stringify(LIST_DISPLAY_COLUMNS, null, 2));
}
