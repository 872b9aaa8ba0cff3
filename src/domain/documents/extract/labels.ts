// How documents label each field, in the wordings carriers, forwarders and sellers use. Longer
// wordings come first where one contains another ("Vessel/Voyage" before "Vessel").
import { labelPattern, type Label } from './layout.ts';

const NO = String.raw`\s*(?:No\.?|Nr\.?|Number|Num\.?|#|Ref(?:erence)?\.?)`;

export const LABELS = {
  bill_of_lading: [
    // OCR reads the slash of "B/L" as I or l now and then: "BIL No.", "MBI/L".
    labelPattern([String.raw`(?:Master\s+|House\s+)?B\s*[Il|]?\s*/\s*L(?:${NO})?`, String.raw`M?B[Il|]L${NO}`, String.raw`Bill\s+of\s+Lading(?:${NO})?`, String.raw`(?:M|H)?BL${NO}`, String.raw`M\s*B\s*[Il|]?\s*/\s*L(?:${NO})?`, String.raw`(?:Sea\s+)?Waybill(?:${NO})?`, String.raw`BOL(?:${NO})?`,
      // DCSA's name for the B/L, and what forwarders call the carrier's B/L.
      String.raw`Transport\s+Document(?:${NO})?`, String.raw`(?:Master|House)\s+Bill(?:\s+of\s+Lading)?(?:${NO})?`]),
  ],
  booking: [
    labelPattern([String.raw`Carrier(?:'s)?\s+Booking(?:${NO})?`, String.raw`Booking(?:${NO})?`, String.raw`BKG(?:${NO})?`, String.raw`Bkg\.(?:${NO})?`]),
  ],
  delivery_order: [labelPattern([String.raw`Delivery\s+Order(?:${NO})`, String.raw`D\s*/\s*O${NO}`, String.raw`DO${NO}`, String.raw`Release${NO}`])],
  invoice_number: [labelPattern([String.raw`(?:Commercial\s+)?Invoice(?:${NO})`, String.raw`Inv\.?${NO}`])],
  invoice_date: [labelPattern([String.raw`Invoice\s+Date`, String.raw`Date\s+of\s+Invoice`, 'dated']), labelPattern(['Date'], true)],
  vessel_voyage: [labelPattern([String.raw`(?:Ocean\s+)?Vessel\s*(?:/|&|and)\s*Voy(?:age)?\.?(?:${NO})?`, String.raw`Vsl\s*/\s*Voy\.?`])],
  vessel: [labelPattern([String.raw`(?:Ocean\s+|Mother\s+|Carrying\s+)?Vessel(?:\s+Name)?`, String.raw`Vsl\.?`, 'M/V', 'MV'])],
  voyage: [labelPattern([String.raw`Voyage(?:${NO})?`, String.raw`Voy\.?(?:${NO})?`])],
  port_of_lading: [
    labelPattern([String.raw`Port\s+of\s+(?:Loading|Lading|Shipment)`, String.raw`Load(?:ing)?\s+Port`, 'POL', String.raw`(?:loaded|shipped|departing|sailing)\s+(?:at|from)`]),
  ],
  port_of_discharge: [
    labelPattern([String.raw`Port\s+of\s+(?:Discharge|Unloading|Destination)`, String.raw`Discharg(?:e|ing)\s+Port`, 'POD', String.raw`(?:arrive|arriving|arrives|discharged?)\s+(?:at|in)`]),
  ],
  eta: [
    // Running text first: "estimated arrival at Rotterdam on 14 March" is not the label "Estimated Arrival".
    labelPattern([String.raw`(?:expected|scheduled|due)\s+to\s+arrive(?:\s+(?:at|in)\s+[^.;\t]*?)?\s+on`, String.raw`estimated\s+arrival(?:\s+(?:at|in)\s+[^.;\t]*?)?\s+(?:on|is)`, String.raw`Estimated\s+(?:Time\s+of\s+)?Arrival(?:\s+Date)?`, String.raw`Est\.?\s+Arrival(?:\s+Date)?`, 'ETA', String.raw`Arrival\s+Date`]),
  ],
  etd: [
    labelPattern([String.raw`(?:expected|scheduled|due)\s+to\s+(?:sail|depart)(?:\s+from\s+[^.;\t]*?)?\s+on`, String.raw`(?:sailing|departing)\s+(?:from\s+)?[^.;\t]*?\s+on`, String.raw`Estimated\s+(?:Time\s+of\s+)?Departure(?:\s+Date)?`, 'ETD', String.raw`Sailing\s+Date`, String.raw`Departure\s+Date`]),
  ],
  shipper: [labelPattern([String.raw`Shipper\s*/\s*Exporter`, 'Shipper', 'Exporter']), labelPattern(['Seller', 'Sold\\s+by'], true)],
  consignee: [labelPattern(['Consignee', 'Importer']), labelPattern(['Buyer', 'Sold\\s+to'], true)],
  notify_party: [labelPattern([String.raw`(?:Also\s+)?Notify(?:\s+Part(?:y|ies))?`])],
  total_amount: [labelPattern([String.raw`(?:Invoice\s+|Grand\s+)?Total(?:\s+(?:Amount|Value|Due))?`, String.raw`Amount\s+Due`])],
  total_packages: [labelPattern([String.raw`Total\s+(?:Packages|Cartons|Pallets|Pkgs|Cases)`, String.raw`No\.?\s+of\s+(?:Packages|Cartons|Pkgs|Pallets)`, String.raw`Number\s+of\s+(?:Packages|Cartons|Pallets)`])],
  gross_weight: [labelPattern([String.raw`(?:Total\s+)?Gross\s+Weight(?:\s*\(KGS?\))?`, String.raw`G\.\s*W\.?`])],
} satisfies Record<string, Label[]>;

const ALL: Label[] = Object.values(LABELS).flat();

/** A cell that is only a label ("Port of Loading:"), with nothing of its value. */
export function isLabelCell(cell: string): boolean {
  return ALL.some((label) => {
    const m = label.re.exec(cell);
    return m !== null && m.index === 0 && cell.slice(m[0].length).replace(/^[\s:#.=\-–—()]+/, '') === '';
  });
}
