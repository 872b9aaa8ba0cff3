// The two guidance documents an assistant reads before choosing tools: which tool answers which
// question, and which columns to show when it lists records.

/** svc://docs/mcp-query-guidance */
export const QUERY_GUIDANCE = `# Which svc tool for which question

| The user asks… | Call | Then |
| --- | --- | --- |
| "Track MSCU1234565" / "follow this B/L" | \`track_container\` (number; add scac and numberType when the user gives them) | If the answer is \`needs_carrier\`, ask the user which line and call again with \`scac\`. If a tracking request was created, the containers appear within minutes: \`search_container\` with the number. |
| "Where is container X?" / "status of B/L Y" | \`search_container\` (the number) | \`get_container\` with the container id |
| "When does it arrive?" | \`get_container\` (include shipment) or \`get_shipment_details\` | Read \`podEtaAt\` (estimate) and \`podAtaAt\` (actual); \`podEtaShiftHours\` tells how far the ETA moved |
| "Where is it? Can I pick it up? Holds? Demurrage?" | \`get_container\` | \`situation\` (where it is, what it waits for; \`situation.pickup\`: availability, holds, fees and last free day at the place of pickup), \`demurrage.readyForPickup\` |
| "What happened so far?" / "Is it delayed?" | \`get_container_transport_events\` | The timeline and milestones; compare with the shipment's ETAs (\`get_shipment_details\`) |
| "Which ports / vessels on the way?" | \`get_container_route\` | When it answers \`available: false\`, use \`get_container_transport_events\` |
| "What's arriving in Los Angeles?" / "all available containers" | \`list_containers\` (port USLAX, status available) or \`list_shipments\` | Page with \`page\` while \`hasMore\` is true |
| "Which of my numbers failed?" | \`list_tracking_requests\` (status failed) | \`failedReason\` says why |
| "Which carriers can you track?" / "SCAC of Hapag-Lloyd?" | \`get_supported_shipping_lines\` (search) | |

Rules of thumb:

- Ids come from earlier answers; never invent one. A tool answering with \`isError\` explains what went wrong: read it before retrying.
- Numbers the account does not track yet are not found by \`search_container\`: offer \`track_container\`.
- Times are UTC (ISO 8601); convert with the time zone given beside them (\`podTimezone\`) when telling the user local times.
- Status words, events, holds and fees are explained in svc://docs/milestone-glossary; a container's summary is at svc://container/{id}.
- Calls count against the API key's rate limit (100 a minute). Prefer one list call to many single lookups; a rate-limit error says when to retry.
`;

/** svc://docs/list-display-columns: for each list tool, the item fields to show as table columns, in order. */
export const LIST_DISPLAY_COLUMNS = {
  description: 'Columns to show when presenting list results as a table. field is the member of each item (dotted for nested members); label is the column heading.',
  tools: {
    list_containers: [
      { field: 'number', label: 'Container' },
      { field: 'status', label: 'Status' },
      { field: 'billOfLading', label: 'B/L' },
      { field: 'shippingLineScac', label: 'Line' },
      { field: 'portOfDischarge', label: 'POD' },
      { field: 'podEtaAt', label: 'ETA' },
      { field: 'availableForPickup', label: 'Available' },
      { field: 'activeHolds', label: 'Holds' },
      { field: 'pickupLfd', label: 'Last free day' },
    ],
    list_shipments: [
      { field: 'billOfLading', label: 'B/L' },
      { field: 'shippingLineScac', label: 'Line' },
      { field: 'portOfLoading', label: 'POL' },
      { field: 'portOfDischarge', label: 'POD' },
      { field: 'vesselName', label: 'Vessel' },
      { field: 'podEtaAt', label: 'ETA' },
      { field: 'podAtaAt', label: 'Arrived' },
      { field: 'containerCount', label: 'Containers' },
    ],
    list_tracking_requests: [
      { field: 'requestNumber', label: 'Number' },
      { field: 'requestType', label: 'Type' },
      { field: 'scac', label: 'Line' },
      { field: 'status', label: 'Status' },
      { field: 'failedReason', label: 'Failed because' },
      { field: 'createdAt', label: 'Requested' },
    ],
    search_container: [
      { field: 'containerNumber', label: 'Container' },
      { field: 'status', label: 'Status' },
      { field: 'shippingLine', label: 'Line' },
      { field: 'podTerminal', label: 'Terminal' },
      { field: 'destination', label: 'Destination' },
    ],
  },
} as const;
