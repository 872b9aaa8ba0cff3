// Prompts: ready-made tasks for the three things people most ask of a tracking assistant. Each
// tells the assistant which tools to call and what to look at; the container prompts embed the
// container's current summary so the assistant starts from facts.
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { SvcClient } from '../../sdk/src/index.ts';
import { containerMarkdown, containerUri } from './container-markdown.ts';
import { str, type Rec } from './views/read.ts';

const containerId = z.guid().describe("The container's id (a UUID; search_container finds it from a number)");

/** SCACs starting with what was typed first, then lines whose name matches it. */
async function completeScac(client: SvcClient, typed: string | undefined): Promise<string[]> {
  const text = (typed ?? '').trim();
  try {
    const lines = (await client.shippingLines.list(text ? { search: text } : {})) as Rec[];
    const scacs = lines.map((l) => str(l.scac)).filter((s): s is string => s !== null);
    const prefix = text.toUpperCase();
    return [...scacs.filter((s) => s.startsWith(prefix)), ...scacs.filter((s) => !s.startsWith(prefix))];
  } catch {
    return []; // completion is a convenience: no suggestions rather than a failed keystroke
  }
}

/**
 * An optional completable argument. SDK 1.32.2 looks for the completer inside the optional when
 * registering the prompt, but on the optional itself when answering completion/complete: both
 * carry it, or the completions capability or the answer goes missing.
 */
function optionalCompletable(schema: z.ZodString, description: string, complete: (typed: string | undefined) => Promise<string[]>) {
  return completable(completable(schema, complete).optional().describe(description), complete);
}

const user = (text: string): GetPromptResult['messages'][number] => ({ role: 'user', content: { type: 'text', text } });

/** The container's summary as an embedded resource, or a note saying why it is missing. */
async function containerMessage(client: SvcClient, id: string): Promise<GetPromptResult['messages'][number]> {
  try {
    return { role: 'user', content: { type: 'resource', resource: { uri: containerUri(id), mimeType: 'text/markdown', text: await containerMarkdown(client, id) } } };
  } catch (err) {
    return user(`(The current summary of container ${id} could not be loaded: ${err instanceof Error ? err.message : String(err)}. Start with get_container to see whether the id is right.)`);
  }
}

export function registerPrompts(server: McpServer, client: SvcClient): void {
  server.registerPrompt(
    'track-shipment',
    {
      title: 'Track a shipment',
      description: 'Start tracking a container (or B/L, booking) number and report where it is, when it arrives and whether it can be picked up.',
      argsSchema: {
        container_number: z.string().min(1).describe('The container, bill of lading or booking number'),
        carrier: optionalCompletable(z.string(), 'The shipping line SCAC, if known (e.g. MAEU)', (typed) => completeScac(client, typed)),
      },
    },
    async ({ container_number, carrier }) => ({
      description: `Track ${container_number}`,
      messages: [
        user(
          [
            `Track ${container_number}${carrier ? ` (shipping line ${carrier.toUpperCase()})` : ''} with svc and tell me where it is.`,
            '',
            `1. Call track_container with number "${container_number}"${carrier ? ` and scac "${carrier.toUpperCase()}"` : ''}.`,
            '   - outcome needs_carrier: ask me which of the candidate shipping lines it is, then call track_container again with scac.',
            '   - outcome tracking_request_created or request_pending: tell me tracking has started; the carrier data arrives within minutes, so offer to check again (search_container with the number).',
            '   - outcome already_tracked: go on with the container ids it gives.',
            '2. For each container, call get_container (include shipment and pod_terminal) and report: where it is (situation, in words location.currentLocation), ETA (podEtaAt) or actual arrival (podAtaAt) at the port of discharge, vessel,',
            '   and from situation.pickup (the place it is picked up: the inland ramp for a rail move) whether it is available, active holds, fees and the last free day (a local date with its zone).',
            '3. If I ask about the journey or delays, call get_container_transport_events.',
            'Give times in the local time of the port (time zones are in the answers) and keep the answer short.',
          ].join('\n'),
        ),
      ],
    }),
  );

  containerPrompt(server, client, {
    name: 'check-demurrage',
    title: 'Check demurrage risk',
    description: 'Can this container be picked up, what stands in the way, and what will it cost if it is not picked up by the last free day?',
    task: (id) => `Demurrage check for container ${id}`,
    steps: (id) => [
      `Check the demurrage and pickup situation of container ${id}. Its current summary follows.`,
      '',
      '1. Call get_container (include shipment, pod_terminal) for the latest data.',
      '2. Look at situation.pickup, which speaks of the place the box is picked up (the port terminal, or the inland ramp for a rail move): availability, holds',
      '   (status "hold" is active, "pending" is expected; an empty list means no holds), fees (leave type "total" out when adding up), last_free_day (a local date and its zone) and appointment_at.',
      '3. Tell me: can it be picked up now; which holds block it and who usually releases them (customs, the line for freight, the terminal);',
      "   how many days are left until the last free day, in that place's time zone; fees already due; and what to do next.",
      'If it is not yet discharged, say when it is expected (shipment routing podEtaAt) and that the last free day is usually set after discharge.',
    ],
  });

  containerPrompt(server, client, {
    name: 'analyze-delays',
    title: 'Analyse delays',
    description: 'Is this container late, by how much, and where did the time go?',
    task: (id) => `Delay analysis for container ${id}`,
    steps: (id) => [
      `Analyse the delays of container ${id}. Its current summary follows.`,
      '',
      '1. Call get_container (include shipment) for the shipment id, then get_shipment_details: compare podEtaAt (current estimate) with podOriginalEtaAt (first estimate;',
      '   podEtaShiftHours is the difference) and podAtaAt (actual), and polEtdAt with polAtdAt for the departure.',
      '2. Call get_container_transport_events: look at the time between milestones (loaded → departed → arrived → discharged → available → full out),',
      '   transshipments (a long stay at a hub), and gaps where nothing was reported.',
      '3. Call get_container_route for the planned legs with estimated and actual times; if it answers available: false, rely on the transport events.',
      'Tell me: how late it is (or will be) against the first ETA, at which step the time was lost, whether the ETA is still moving, and what to expect next. Separate estimates from actual times.',
    ],
  });
}

interface ContainerPromptSpec {
  name: string;
  title: string;
  description: string;
  task: (containerId: string) => string;
  steps: (containerId: string) => string[];
}

/** A prompt about one container: the instructions, then the container's current summary. */
function containerPrompt(server: McpServer, client: SvcClient, spec: ContainerPromptSpec): void {
  server.registerPrompt(spec.name, { title: spec.title, description: spec.description, argsSchema: { container_id: containerId } }, async ({ container_id }) => ({
    description: spec.task(container_id),
    messages: [user(spec.steps(container_id).join('\n')), await containerMessage(client, container_id)],
  }));
}
