// The labelled document set extraction is measured on (test/document-extraction.test.ts,
// bench/documents.ts): shipping documents of every type in several layouts (key: value lines, two
// columns, stacked boxes, label/value tables, running text), label wordings and orders, numbers
// written with blanks and dashes, and distractors (seal, invoice, PO and phone numbers, container
// numbers whose check digit fails). Made with pdf-lib from a seed, so the same seed gives the same
// bytes; some are rendered to PNG, JPEG or TIFF for OCR (renderImage, through pdftoppm).
//
//   node --import tsx scripts/generate-documents.ts [--out <dir>] [--seed <n>] [--count <n>]
//
// writes each document and its labels (<name>.labels.json) to the folder (default
// $TMPDIR/svc-documents), images too when pdftoppm is installed.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { DocumentFields, DocumentType } from '../src/domain/documents/extract/types.ts';
import { DOCUMENT_FIELDS } from '../src/domain/documents/schemas/index.ts';
import { checkDigit } from '../src/domain/inference/iso6346.ts';

export type Format = 'pdf' | 'text' | 'eml' | 'png' | 'jpeg' | 'tiff';
export type LayoutKind = 'keyvalue' | 'two_column' | 'boxes' | 'table' | 'prose';

export interface DocumentLabels {
  type: DocumentType;
  numbers: { containers: string[]; bills_of_lading: string[]; bookings: string[] };
  fields: DocumentFields;
}

export interface GeneratedDocument {
  name: string;
  format: Format;
  layout: LayoutKind;
  contentType: string;
  /** The PDF for pdf and image formats (an image is rendered from it by renderImage), else the file. */
  bytes: Uint8Array;
  labels: DocumentLabels;
}

export const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  pdf: 'application/pdf', text: 'text/plain', eml: 'message/rfc822', png: 'image/png', jpeg: 'image/jpeg', tiff: 'image/tiff',
};

// ---- seeded randomness ----------------------------------------------------------------------

/** mulberry32: small, fast and good enough to vary documents. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const chance = (p: number) => next() < p;
  const digits = (n: number) => Array.from({ length: n }, () => int(0, 9)).join('');
  const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + int(0, 25))).join('');
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = int(0, i);
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  return { int, pick, chance, digits, letters, shuffle };
}
type Random = ReturnType<typeof random>;

// ---- the world documents describe -------------------------------------------------------------

interface Carrier {
  name: string;
  /** What svc's inference selects for this line's B/L numbers and own containers. */
  scac: string;
  bl: (r: Random) => string;
  booking: (r: Random) => string;
  owners: string[];
  vessels: string[];
}

const CARRIERS: readonly Carrier[] = [
  { name: 'MAERSK A/S', scac: 'MAEU', bl: (r) => `MAEU${r.digits(9)}`, booking: (r) => `2${r.digits(8)}`, owners: ['MSKU', 'MRKU', 'MAEU'], vessels: ['MAERSK ESSEN', 'MAERSK HONAM', 'GUDRUN MAERSK', 'MUMBAI MAERSK'] },
  { name: 'MEDITERRANEAN SHIPPING COMPANY S.A.', scac: 'MSCU', bl: (r) => `MEDU${r.letters(2)}${r.digits(6)}`, booking: (r) => `0${r.digits(9)}`, owners: ['MSCU', 'MEDU', 'MSDU'], vessels: ['MSC GULSUN', 'MSC IRINA', 'MSC OSCAR', 'MSC LORETO'] },
  { name: 'CMA CGM', scac: 'CMDU', bl: (r) => `CMDU${r.letters(3)}${r.digits(7)}`, booking: (r) => `${r.letters(3)}${r.digits(7)}`, owners: ['CMAU', 'CGMU'], vessels: ['CMA CGM JACQUES SAADE', 'CMA CGM MARCO POLO', 'CMA CGM ANTOINE DE SAINT EXUPERY'] },
  { name: 'COSCO SHIPPING LINES', scac: 'COSU', bl: (r) => `COSU${r.digits(10)}`, booking: (r) => r.digits(10), owners: ['CSNU', 'CBHU'], vessels: ['COSCO SHIPPING UNIVERSE', 'COSCO SHIPPING ARIES', 'COSCO DEVELOPMENT'] },
  { name: 'HAPAG-LLOYD AG', scac: 'HLCU', bl: (r) => `HLCU${r.letters(3)}${r.digits(9)}`, booking: (r) => r.digits(8), owners: ['HLXU', 'HLBU'], vessels: ['BERLIN EXPRESS', 'HAMBURG EXPRESS', 'AL ZUBARA'] },
  { name: 'OCEAN NETWORK EXPRESS', scac: 'ONEY', bl: (r) => `ONEY${r.letters(4)}${r.digits(8)}`, booking: (r) => `${r.letters(4)}${r.digits(8)}`, owners: ['ONEU', 'NYKU'], vessels: ['ONE APUS', 'ONE STORK', 'ONE INNOVATION'] },
  { name: 'EVERGREEN LINE', scac: 'EGLV', bl: (r) => `EGLV${r.digits(12)}`, booking: (r) => r.digits(12), owners: ['EGHU', 'EISU', 'EMCU'], vessels: ['EVER GIVEN', 'EVER ACE', 'EVER ALOT'] },
  { name: 'HMM CO., LTD.', scac: 'HDMU', bl: (r) => `HDMU${r.letters(4)}${r.digits(7)}`, booking: (r) => `${r.letters(4)}${r.digits(7)}`, owners: ['HDMU', 'HMMU'], vessels: ['HMM ALGECIRAS', 'HMM OSLO', 'HMM ROTTERDAM'] },
];

/** Container owners that lease to any line: their boxes say nothing of the carrier. */
const LESSORS = ['TGHU', 'TCLU', 'SEGU', 'TRHU', 'FCIU', 'BMOU'];

interface Port {
  locode: string;
  /** svc's name for it (refdata/ports.csv). */
  name: string;
  /** Ways documents write it. */
  written: string[];
}

const PORTS: readonly Port[] = [
  { locode: 'NLRTM', name: 'Rotterdam', written: ['Rotterdam, NL', 'ROTTERDAM, NETHERLANDS', 'Rotterdam (NLRTM)', 'NLRTM', 'Port of Rotterdam'] },
  { locode: 'CNSHA', name: 'Shanghai', written: ['Shanghai, China', 'SHANGHAI, CN', 'Shanghai (CNSHA)', 'CNSHA', 'SHANGHAI'] },
  { locode: 'SGSIN', name: 'Singapore', written: ['Singapore', 'SINGAPORE, SG', 'Singapore (SGSIN)', 'SGSIN'] },
  { locode: 'CNNGB', name: 'Ningbo', written: ['Ningbo, China', 'NINGBO', 'Ningbo (CNNGB)', 'CNNGB'] },
  { locode: 'KRPUS', name: 'Busan', written: ['Busan, Korea', 'BUSAN, KR', 'Busan (KRPUS)', 'KRPUS'] },
  { locode: 'HKHKG', name: 'Hong Kong', written: ['Hong Kong', 'HONG KONG, HK', 'Hong Kong (HKHKG)'] },
  { locode: 'DEHAM', name: 'Hamburg', written: ['Hamburg, Germany', 'HAMBURG, DE', 'Hamburg (DEHAM)', 'DEHAM'] },
  { locode: 'BEANR', name: 'Antwerpen', written: ['Antwerp, Belgium', 'ANTWERP', 'Antwerpen (BEANR)', 'BEANR'] },
  { locode: 'USLAX', name: 'Los Angeles', written: ['Los Angeles, CA, USA', 'LOS ANGELES, US', 'Los Angeles (USLAX)', 'USLAX'] },
  { locode: 'USLGB', name: 'Long Beach', written: ['Long Beach, USA', 'LONG BEACH', 'Long Beach (USLGB)'] },
  { locode: 'USNYC', name: 'New York', written: ['New York, USA', 'NEW YORK, US', 'New York (USNYC)'] },
  { locode: 'USSAV', name: 'Savannah', written: ['Savannah, USA', 'SAVANNAH, US', 'Savannah (USSAV)'] },
  { locode: 'USHOU', name: 'Houston', written: ['Houston, USA', 'HOUSTON, US', 'Houston (USHOU)'] },
  { locode: 'JPYOK', name: 'Yokohama', written: ['Yokohama, Japan', 'YOKOHAMA', 'Yokohama (JPYOK)'] },
  { locode: 'AEJEA', name: 'Jebel Ali', written: ['Jebel Ali, UAE', 'JEBEL ALI', 'Jebel Ali (AEJEA)'] },
  { locode: 'MYPKG', name: 'Port Klang (Pelabuhan Klang)', written: ['Port Klang, Malaysia', 'PORT KLANG', 'Port Klang (MYPKG)'] },
  { locode: 'ESVLC', name: 'Valencia', written: ['Valencia, Spain', 'VALENCIA, ES', 'Valencia (ESVLC)'] },
  { locode: 'ITGOA', name: 'Genova', written: ['Genoa, Italy', 'GENOA', 'Genova (ITGOA)'] },
  { locode: 'BRSSZ', name: 'Santos', written: ['Santos, Brazil', 'SANTOS, BR', 'Santos (BRSSZ)'] },
  { locode: 'TWKHH', name: 'Kaohsiung', written: ['Kaohsiung, Taiwan', 'KAOHSIUNG', 'Kaohsiung (TWKHH)'] },
  { locode: 'FRLEH', name: 'Le Havre', written: ['Le Havre, France', 'LE HAVRE, FR', 'Le Havre (FRLEH)'] },
  { locode: 'CAVAN', name: 'Vancouver', written: ['Vancouver, Canada', 'VANCOUVER, CA', 'Vancouver (CAVAN)'] },
];

const COMPANIES = [
  'ACME TRADING CO., LTD.', 'GLOBEX IMPORTS INC.', 'NORTHWIND FURNITURE GMBH', 'BLUE OCEAN TEXTILES LTD',
  'Sunrise Electronics Co., Ltd.', 'Pacific Rim Foods LLC', 'Hanseatic Machinery AG', 'Orion Home Goods B.V.',
  'SHENZHEN BRIGHT LIGHTING CO., LTD.', 'Delta Auto Parts S.A. de C.V.', 'Kestrel Outdoor Supply Corp', 'MERIDIAN CHEMICALS PTE LTD',
  'Vistula Paper Sp. z o.o.', 'Andes Coffee Exporters S.A.', 'Lotus Ceramics Pvt. Ltd.', 'GREAT LAKES HARDWARE CO',
];

const GOODS = ['FURNITURE', 'LED LIGHTING FIXTURES', 'COTTON T-SHIRTS', 'AUTO PARTS', 'FROZEN SEAFOOD', 'CERAMIC TILES', 'MACHINERY PARTS', 'GREEN COFFEE BEANS', 'PAPER ROLLS'];

const SIZE_TYPES = ['20GP', '40HC', '40GP', "45'HC", '20DV', '40RF'];

// ---- numbers -------------------------------------------------------------------------------

function containerNumber(r: Random, owner: string): string {
  const ten = owner + r.digits(6);
  return ten + checkDigit(ten);
}

/** A container-like number whose check digit is wrong: extraction must never accept it. */
function badContainerNumber(r: Random, owner: string): string {
  const ten = owner + r.digits(6);
  return ten + ((checkDigit(ten) + r.int(1, 9)) % 10);
}

/** Ways documents write container numbers. */
function writeContainer(r: Random, n: string): string {
  const [o, s, c] = [n.slice(0, 4), n.slice(4, 10), n[10]];
  return r.pick([n, n, `${o} ${s}-${c}`, `${o} ${s.slice(0, 3)} ${s.slice(3)} ${c}`, `${o}-${s}-${c}`, `${o} ${s}${c}`, `${o}${s}(${c})`, `${o} ${s} ${c}`]);
}

/** Ways documents write B/L and booking numbers: as is, a blank or a dash after the prefix, groups. */
function writeNumber(r: Random, n: string): string {
  const m = /^([A-Z]{4})(.*)$/.exec(n);
  if (m && r.chance(0.35)) return `${m[1]}${r.pick([' ', '-'])}${m[2]}`;
  if (/^\d{9,12}$/.test(n) && r.chance(0.3)) return n.match(/.{1,3}/g)!.join(r.pick([' ', '-']));
  return n;
}

// ---- dates ---------------------------------------------------------------------------------

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function writeDate(r: Random, iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  const mon = MONTH_NAMES[m - 1];
  const pad = (x: number) => String(x).padStart(2, '0');
  return r.pick([
    iso, `${pad(d)}/${pad(m)}/${y}`, `${pad(d)}.${pad(m)}.${y}`, `${pad(d)}-${mon.slice(0, 3)}-${y}`,
    `${d} ${mon.slice(0, 3).toUpperCase()} ${y}`, `${mon} ${d}, ${y}`, `${d} ${mon} ${y}`,
  ]);
}

function isoDate(r: Random, from: string, days: number): string {
  const t = Date.parse(`${from}T00:00:00Z`) + r.int(0, days) * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

// ---- one document's content ------------------------------------------------------------------

/** A field as printed: the label's wording and the value's text. */
interface Printed {
  key: string;
  label: string;
  value: string;
}

interface Content {
  type: DocumentType;
  title: string;
  /** Fields in print order. */
  printed: Printed[];
  /** Container rows (written number, seal, size type) and whether each is a distractor. */
  containers: { written: string; seal: string; sizeType: string }[];
  /** Running-text sentences for the prose layout. */
  prose: string[];
  labels: DocumentLabels;
}

const WORDINGS: Readonly<Record<string, readonly string[]>> = {
  bl: ['B/L No.', 'Bill of Lading No.', 'B/L Number', 'BL#', 'Bill of Lading Number', 'MB/L', 'Waybill No.', 'B/L No'],
  booking: ['Booking No.', 'Booking Number', 'Booking Ref.', 'BKG No.', 'Carrier Booking Reference', 'Booking #'],
  vessel: ['Vessel', 'Vessel Name', 'Ocean Vessel', 'VESSEL'],
  voyage: ['Voyage', 'Voyage No.', 'Voy.', 'VOY NO'],
  vessel_voyage: ['Vessel / Voyage', 'Vessel/Voy.', 'Ocean Vessel / Voyage No.'],
  pol: ['Port of Loading', 'POL', 'Load Port', 'Port of Lading', 'PORT OF LOADING'],
  pod: ['Port of Discharge', 'POD', 'Discharge Port', 'PORT OF DISCHARGE'],
  eta: ['ETA', 'Estimated Arrival', 'Est. Arrival Date', 'Estimated Time of Arrival', 'Arrival Date'],
  etd: ['ETD', 'Estimated Departure', 'Sailing Date', 'Departure Date'],
  shipper: ['Shipper', 'Shipper/Exporter', 'SHIPPER', 'Exporter'],
  consignee: ['Consignee', 'CONSIGNEE', 'Importer'],
  notify: ['Notify Party', 'Notify', 'Also Notify'],
  do: ['Delivery Order No.', 'D/O No.', 'DO Number', 'Release No.'],
  invoice: ['Invoice No.', 'Invoice Number', 'Inv. #', 'INVOICE NO'],
  invoice_date: ['Invoice Date', 'Date'],
  total: ['Total Amount', 'TOTAL', 'Invoice Total', 'Grand Total'],
  packages: ['Total Packages', 'No. of Packages', 'Total Cartons', 'Number of Packages'],
  weight: ['Gross Weight', 'Total Gross Weight', 'G.W.', 'GROSS WEIGHT (KGS)'],
  container: ['Container No.', 'Container Number', 'Cntr No.', 'Equipment'],
};

const TITLES: Readonly<Record<DocumentType, readonly string[]>> = {
  bill_of_lading: ['BILL OF LADING', 'Bill of Lading', 'SEA WAYBILL', 'BILL OF LADING FOR OCEAN TRANSPORT'],
  booking_confirmation: ['BOOKING CONFIRMATION', 'Booking Confirmation', 'BOOKING ACKNOWLEDGEMENT'],
  arrival_notice: ['ARRIVAL NOTICE', 'Arrival Notice', 'NOTICE OF ARRIVAL'],
  delivery_order: ['DELIVERY ORDER', 'Delivery Order', 'RELEASE ORDER'],
  commercial_invoice: ['COMMERCIAL INVOICE', 'Commercial Invoice', 'INVOICE'],
  packing_list: ['PACKING LIST', 'Packing List'],
  other: ['CERTIFICATE OF ORIGIN', 'FUMIGATION CERTIFICATE', 'PICKUP REMINDER', 'CUSTOMS ENTRY SUMMARY', 'Shipment update'],
};

function content(r: Random, type: DocumentType, kind: LayoutKind): Content {
  const carrier = r.pick(CARRIERS);
  const [pol, pod] = r.shuffle([...PORTS]).slice(0, 2);
  const etd = isoDate(r, '2026-01-05', 300);
  const eta = isoDate(r, etd, 40);
  const vessel = r.pick(carrier.vessels);
  const voyage = `${r.digits(3)}${r.pick(['W', 'E', 'N', 'S'])}`;
  const [shipper, consignee, notify] = r.shuffle([...COMPANIES]).slice(0, 3);
  const bl = carrier.bl(r);
  const booking = carrier.booking(r);
  const lessor = r.chance(0.3);
  const count = type === 'booking_confirmation' ? r.pick([0, 0, 1, 2]) : r.int(1, 5);
  const containers = Array.from({ length: count }, () => containerNumber(r, lessor ? r.pick(LESSORS) : r.pick(carrier.owners)));
  const wording = (k: string) => r.pick(WORDINGS[k]);

  const printed: Printed[] = [];
  const shown: DocumentFields = {};
  const numbers: DocumentLabels['numbers'] = { containers, bills_of_lading: [], bookings: [] };
  // Each field appears with this chance, so documents differ in what they show too.
  const add = (key: string, value: string, labelled: Partial<DocumentFields>, p = 0.9) => {
    if (!r.chance(p)) return false;
    printed.push({ key, label: wording(key), value });
    Object.assign(shown, labelled);
    return true;
  };
  const addBl = () => add('bl', writeNumber(r, bl), { bill_of_lading_number: bl }) && numbers.bills_of_lading.push(bl);
  const addBooking = () => add('booking', writeNumber(r, booking), { booking_number: booking }) && numbers.bookings.push(booking);
  const addVessel = () => {
    if (r.chance(0.4)) add('vessel_voyage', `${vessel} / ${voyage}`, { pod_vessel_name: vessel, pod_voyage_number: voyage });
    else {
      add('vessel', vessel, { pod_vessel_name: vessel });
      add('voyage', r.pick([voyage, `V.${voyage}`]), { pod_voyage_number: voyage });
    }
  };
  const addPort = (key: 'pol' | 'pod', port: Port) =>
    add(key, r.pick(port.written), key === 'pol' ? { port_of_lading_locode: port.locode, port_of_lading_name: port.name } : { port_of_discharge_locode: port.locode, port_of_discharge_name: port.name });
  const addParty = (key: 'shipper' | 'consignee' | 'notify', name: string, p = 0.9) =>
    add(key, name, { [key === 'notify' ? 'notify_party' : key]: { company_name: name } }, p);

  let prose: string[];
  // What the running text names (the prose layout), beside what the form printed (`shown`).
  let proseFields: DocumentFields = {};
  let proseNumbers: { bl?: string; booking?: string } = {};
  const list = () => containers.map((c) => writeContainer(r, c)).join(', ');
  switch (type) {
    case 'bill_of_lading':
      addBl();
      if (r.chance(0.5)) addBooking();
      addParty('shipper', shipper); addParty('consignee', consignee); addParty('notify', notify, 0.7);
      addVessel(); addPort('pol', pol); addPort('pod', pod);
      prose = [
        `This ${r.pick(['bill of lading', 'sea waybill'])} ${writeNumber(r, bl)} covers the goods shipped on board the vessel ${vessel} voyage ${voyage}.`,
        `Shipper: ${shipper}`, `Consignee: ${consignee}`,
        `The cargo was loaded at ${r.pick(pol.written)} for discharge at ${r.pick(pod.written)}.`,
        `Containers: ${list()}.`, 'Freight prepaid. Number of original B/Ls: THREE (3).',
      ];
      proseNumbers = { bl };
      proseFields = { bill_of_lading_number: bl, pod_vessel_name: vessel, pod_voyage_number: voyage, shipper: { company_name: shipper }, consignee: { company_name: consignee }, port_of_lading_locode: pol.locode, port_of_lading_name: pol.name, port_of_discharge_locode: pod.locode, port_of_discharge_name: pod.name };
      break;
    case 'booking_confirmation':
      addBooking();
      addParty('shipper', shipper);
      addVessel(); addPort('pol', pol); addPort('pod', pod);
      add('etd', writeDate(r, etd), { pol_etd_at: etd }); add('eta', writeDate(r, eta), { pod_eta_at: eta });
      prose = [
        `Dear ${r.pick(['customer', 'Sir/Madam', 'partner'])},`,
        `your booking ${writeNumber(r, booking)} has been confirmed on the vessel ${vessel}, voyage ${voyage}, sailing from ${r.pick(pol.written)} on ${writeDate(r, etd)}.`,
        `The cargo is due to arrive at ${r.pick(pod.written)} on ${writeDate(r, eta)}.`,
        ...(containers.length ? [`Containers released: ${list()}.`] : []),
        `Shipper: ${shipper}`, 'Please observe the VGM cut-off.',
      ];
      proseNumbers = { booking };
      proseFields = { booking_number: booking, pod_vessel_name: vessel, pod_voyage_number: voyage, port_of_lading_locode: pol.locode, port_of_lading_name: pol.name, port_of_discharge_locode: pod.locode, port_of_discharge_name: pod.name, pol_etd_at: etd, pod_eta_at: eta, shipper: { company_name: shipper } };
      break;
    case 'arrival_notice':
      addBl();
      addParty('consignee', consignee); addParty('notify', notify, 0.6);
      addVessel(); addPort('pol', pol); addPort('pod', pod);
      add('eta', writeDate(r, eta), { pod_eta_at: eta });
      prose = [
        `Dear ${consignee},`,
        `we are pleased to advise that the vessel ${vessel}, voyage ${voyage}, is expected to arrive at ${r.pick(pod.written)} on ${writeDate(r, eta)}.`,
        `Your shipment under B/L ${writeNumber(r, bl)} was loaded at ${r.pick(pol.written)}.`,
        `Containers: ${list()}.`, 'Charges due before release. Last free day will follow discharge.',
      ];
      proseNumbers = { bl };
      proseFields = { bill_of_lading_number: bl, pod_vessel_name: vessel, pod_voyage_number: voyage, port_of_lading_locode: pol.locode, port_of_lading_name: pol.name, port_of_discharge_locode: pod.locode, port_of_discharge_name: pod.name, pod_eta_at: eta };
      break;
    case 'delivery_order': {
      const doNumber = `DO-${etd.slice(0, 4)}-${r.digits(6)}`;
      add('do', doNumber, { delivery_order_number: doNumber.replace(/-/g, '') });
      addBl();
      addParty('consignee', consignee);
      addVessel(); addPort('pod', pod);
      prose = [
        `Delivery order ${r.pick(['no.', 'number'])} ${doNumber}`,
        `Please release the following containers to ${consignee}: ${list()}.`,
        `They arrived on the vessel ${vessel}, voyage ${voyage}, under B/L ${writeNumber(r, bl)}, discharged at ${r.pick(pod.written)}.`,
      ];
      proseNumbers = { bl };
      proseFields = { delivery_order_number: doNumber.replace(/-/g, ''), bill_of_lading_number: bl, pod_vessel_name: vessel, pod_voyage_number: voyage, port_of_discharge_locode: pod.locode, port_of_discharge_name: pod.name };
      break;
    }
    case 'commercial_invoice': {
      const invoice = `INV-${etd.slice(0, 4)}-${r.digits(5)}`;
      const date = isoDate(r, '2026-01-01', 300);
      const currency = r.pick(['USD', 'EUR', 'USD', 'CNY']);
      const amount = r.int(1_000, 250_000) + r.int(0, 99) / 100;
      add('invoice', invoice, { invoice_number: invoice }, 1);
      add('invoice_date', writeDate(r, date), { invoice_date: date });
      addParty('shipper', shipper); addParty('consignee', consignee);
      if (r.chance(0.6)) addBl();
      addVessel(); addPort('pol', pol); addPort('pod', pod);
      const written = amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      add('total', r.pick([`${currency} ${written}`, `${written} ${currency}`]), { currency, total_amount: amount });
      prose = [
        `Invoice number ${invoice} dated ${writeDate(r, date)}.`, `Seller: ${shipper}`, `Buyer: ${consignee}`,
        `Goods shipped from ${r.pick(pol.written)} on the vessel ${vessel} in containers ${list()}.`,
        `Total amount ${currency} ${written}, payment terms 30 days.`,
      ];
      proseFields = { invoice_number: invoice, invoice_date: date, shipper: { company_name: shipper }, consignee: { company_name: consignee }, pod_vessel_name: vessel, port_of_lading_locode: pol.locode, port_of_lading_name: pol.name, currency, total_amount: amount };
      break;
    }
    case 'packing_list': {
      const invoice = `INV-${etd.slice(0, 4)}-${r.digits(5)}`;
      const packages = r.int(10, 2_400);
      const weight = r.int(800, 26_000) + r.pick([0, 0.5, 0.25]);
      add('invoice', invoice, { invoice_number: invoice });
      addParty('shipper', shipper); addParty('consignee', consignee);
      if (r.chance(0.6)) addBl();
      add('packages', `${packages.toLocaleString('en-US')} ${r.pick(['CARTONS', 'PACKAGES', 'PALLETS', 'CTNS'])}`, { total_packages: packages });
      add('weight', `${weight.toLocaleString('en-US', { minimumFractionDigits: 2 })} ${r.pick(['KGS', 'KG', 'KGM'])}`, { gross_weight_kg: weight });
      prose = [
        `Packing list for invoice no. ${invoice}.`, `Shipper: ${shipper}`, `Consignee: ${consignee}`,
        `Total packages: ${packages} cartons, gross weight ${weight} KGS, net weight ${Math.round(weight * 0.9)} KGS.`,
        `Stuffed in containers ${list()}.`,
      ];
      proseFields = { invoice_number: invoice, shipper: { company_name: shipper }, consignee: { company_name: consignee }, total_packages: packages, gross_weight_kg: weight };
      break;
    }
    default:
      if (r.chance(0.5)) addBl();
      prose = [
        `This is to certify that the goods described below, ${r.pick(GOODS).toLowerCase()}, were inspected.`,
        `Containers: ${list()}.`, `Issued on ${writeDate(r, etd)} at ${r.pick(pol.written)}.`,
      ];
  }
  // svc infers the line from the numbers: a B/L's prefix or the line's own container prefixes.
  const scac = (numbers: DocumentLabels['numbers']) => (numbers.bills_of_lading.length > 0 || (!lessor && containers.length > 0) ? carrier.scac : undefined);
  if (kind === 'prose') {
    numbers.bills_of_lading = proseNumbers.bl ? [proseNumbers.bl] : [];
    numbers.bookings = proseNumbers.booking ? [proseNumbers.booking] : [];
    if (proseNumbers.bl) proseFields.bill_of_lading_number = proseNumbers.bl;
    if (proseNumbers.booking) proseFields.booking_number = proseNumbers.booking;
  }
  return {
    type,
    title: r.pick(TITLES[type]),
    printed: r.shuffle(printed),
    containers: containers.map((c) => ({ written: writeContainer(r, c), seal: `${r.letters(2)}${r.digits(7)}`, sizeType: r.pick(SIZE_TYPES) })),
    prose,
    labels: { type, numbers, fields: { ...(kind === 'prose' ? proseFields : shown), shipping_line_scac: scac(numbers) } },
  };
}

/** Lines that carry numbers extraction must not take: seals, references, phones, HS codes, bad container numbers. */
function distractors(r: Random): string[][] {
  const bad = badContainerNumber(r, r.pick([...CARRIERS.flatMap((c) => c.owners), ...LESSORS]));
  return r.shuffle([
    [`PO Number: PO${r.digits(7)}`, `Tel: +${r.int(1, 86)} ${r.digits(3)} ${r.digits(4)} ${r.digits(3)}`],
    [`Customer Ref: ${r.letters(3)}${r.digits(8)}`],
    [`HS Code: ${r.digits(4)}.${r.digits(2)}.${r.digits(2)}`, `Seal: ${r.letters(2)}${r.digits(7)}`],
    [`Previous equipment (typo, not shipped): ${writeContainer(r, bad)}`],
    [`Description: ${r.pick(GOODS)}`],
  ]).slice(0, r.int(2, 5));
}

// ---- layouts -------------------------------------------------------------------------------

/** A line of cells, each with a column (x in points). */
type Line = { cells: { text: string; x: number }[]; size?: number };

function layoutLines(r: Random, c: Content, kind: LayoutKind): Line[] {
  const lines: Line[] = [{ cells: [{ text: c.title, x: 50 }], size: 16 }, { cells: [] }];
  const one = (...texts: string[]): Line => ({ cells: texts.map((text, i) => ({ text, x: 50 + i * 260 })) });
  const distract = distractors(r);
  // Values that may contain a number run into the next label on no layout: each cell stands alone.
  const pair = (p: Printed) => `${p.label}${r.pick([':', ':', '', ' -', ' #'].filter((s) => !(s === ' #' && p.label.endsWith('#'))))} ${p.value}`;
  if (kind === 'prose') {
    lines.push(...c.prose.map((s) => one(s)));
    for (const d of distract) lines.push(one(d.join('. ')));
    return lines;
  }
  const printed = [...c.printed];
  switch (kind) {
    case 'keyvalue':
      for (const p of printed) lines.push(one(pair(p)));
      break;
    case 'two_column':
      for (let i = 0; i < printed.length; i += 2) lines.push(one(...printed.slice(i, i + 2).map(pair)));
      break;
    case 'boxes':
      for (let i = 0; i < printed.length; i += 2) {
        const row = printed.slice(i, i + 2);
        lines.push(one(...row.map((p) => p.label.toUpperCase())), one(...row.map((p) => p.value)), { cells: [] });
      }
      break;
    case 'table':
      for (const p of printed) lines.push({ cells: [{ text: p.label, x: 50 }, { text: p.value, x: 230 }] });
      break;
  }
  lines.push({ cells: [] });
  if (c.containers.length > 0) {
    if (kind === 'keyvalue' && r.chance(0.5)) lines.push(one(`${r.pick(WORDINGS.container)}: ${c.containers.map((x) => x.written).join(', ')}`));
    else {
      const xs = [50, 190, 310, 400];
      lines.push({ cells: [r.pick(WORDINGS.container), 'Seal No.', 'Type', 'Packages'].map((text, i) => ({ text, x: xs[i] })) });
      for (const row of c.containers) lines.push({ cells: [row.written, row.seal, row.sizeType, `${r.int(10, 900)} CTNS`].map((text, i) => ({ text, x: xs[i] })) });
    }
  }
  lines.push({ cells: [] });
  for (const d of distract) lines.push(one(...d));
  return lines;
}

// ---- renderers -----------------------------------------------------------------------------

const FONTS = [StandardFonts.Helvetica, StandardFonts.Courier, StandardFonts.TimesRoman, StandardFonts.HelveticaBold];
const FIXED_DATE = new Date('2026-01-01T00:00:00Z');

async function renderPdf(r: Random, lines: Line[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // Fixed metadata: the same seed gives the same bytes.
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  doc.setProducer('svc generate-documents');
  doc.setCreator('svc generate-documents');
  const font = await doc.embedFont(r.pick(FONTS));
  const size = r.pick([9, 10, 11]);
  let page = doc.addPage([595, 842]);
  let y = 790;
  for (const line of lines) {
    const s = line.size ?? size;
    if (y < 50) {
      page = doc.addPage([595, 842]);
      y = 790;
    }
    for (const [i, cell] of line.cells.entries()) {
      const next = line.cells[i + 1];
      if (next || cell.x > 50) {
        // A form's cell shrinks to fit its box, as form software does; only running text wraps.
        const fit = ((next?.x ?? 580) - cell.x - 24) / font.widthOfTextAtSize(cell.text, 1);
        page.drawText(cell.text, { x: cell.x, y, size: Math.min(s, fit), font });
        continue;
      }
      // Running text wraps at the page's width.
      const words = cell.text.split(' ');
      let text = '';
      for (const w of words) {
        const longer = text ? `${text} ${w}` : w;
        if (font.widthOfTextAtSize(longer, s) > 595 - cell.x - 40 && text) {
          page.drawText(text, { x: cell.x, y, size: s, font });
          y -= s * 1.4;
          text = w;
        } else text = longer;
      }
      page.drawText(text, { x: cell.x, y, size: s, font });
    }
    y -= s * (line.cells.length ? 1.6 : 0.8);
  }
  return doc.save({ useObjectStreams: false });
}

function renderText(r: Random, lines: Line[]): string {
  const gap = r.pick(['\t', '    ', '     ']);
  return lines.map((l) => l.cells.map((c) => c.text).join(gap)).join('\n') + '\n';
}

function renderEmail(r: Random, index: number, subject: string, body: string, pdf?: Uint8Array): string {
  const boundary = `svc-boundary-${index}`;
  const headers = [
    `From: ${r.pick(['docs@carrier.example', 'noreply@forwarder.example', 'ops@shipper.example'])}`,
    'To: imports@consignee.example',
    `Subject: ${subject}`,
    `Date: Mon, 05 Jan 2026 10:${String(index % 60).padStart(2, '0')}:00 +0000`,
    `Message-ID: <doc-${index}@generate-documents.example>`,
    'MIME-Version: 1.0',
  ];
  if (!pdf) return [...headers, 'Content-Type: text/plain; charset=utf-8', '', body].join('\r\n');
  const b64 = Buffer.from(pdf).toString('base64').match(/.{1,76}/g)!.join('\r\n');
  return [
    ...headers, `Content-Type: multipart/mixed; boundary="${boundary}"`, '',
    `--${boundary}`, 'Content-Type: text/plain; charset=utf-8', '', 'Please find the document attached.', '',
    `--${boundary}`, 'Content-Type: application/pdf; name="document.pdf"', 'Content-Disposition: attachment; filename="document.pdf"', 'Content-Transfer-Encoding: base64', '', b64, '',
    `--${boundary}--`, '',
  ].join('\r\n');
}

/** What a document shows, restricted to its type's schema (what extraction is asked for). */
function schemaLabels(labels: DocumentLabels): DocumentLabels {
  const fields: Record<string, unknown> = {};
  for (const name of DOCUMENT_FIELDS[labels.type]) {
    const value = name === 'container_numbers' ? labels.numbers.containers : labels.fields[name];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) fields[name] = value;
  }
  return { ...labels, fields: fields as DocumentFields };
}

const TYPES: readonly DocumentType[] = ['bill_of_lading', 'booking_confirmation', 'arrival_notice', 'delivery_order', 'commercial_invoice', 'packing_list', 'other'];
const LAYOUTS: readonly LayoutKind[] = ['keyvalue', 'two_column', 'boxes', 'table', 'prose'];

/**
 * `count` documents from `seed`: types and layouts in turn; in every ten, six PDFs, two images
 * (their PDF, for renderImage), one plain text and one e-mail.
 */
export async function generateDocuments({ seed = 15, count = 240 } = {}): Promise<GeneratedDocument[]> {
  const r = random(seed);
  const docs: GeneratedDocument[] = [];
  for (let i = 0; i < count; i++) {
    const type = TYPES[i % TYPES.length];
    const layout = LAYOUTS[Math.floor(i / TYPES.length) % LAYOUTS.length];
    const c = content(r, type, layout);
    const lines = layoutLines(r, c, layout);
    const labels = schemaLabels(c.labels);
    // One in ten is plain text, one in ten an e-mail (half with the PDF attached), one in five an image.
    const roll = i % 10;
    const format: Format = roll === 3 ? 'text' : roll === 7 ? 'eml' : roll === 1 ? 'png' : roll === 5 ? (i % 20 < 10 ? 'jpeg' : 'tiff') : 'pdf';
    const name = `${String(i).padStart(3, '0')}-${type}-${layout}`;
    let bytes: Uint8Array;
    if (format === 'text') bytes = Buffer.from(renderText(r, lines));
    else if (format === 'eml') {
      const pdf = r.chance(0.5) ? await renderPdf(r, lines) : undefined;
      const subject = `${c.title} ${labels.numbers.bills_of_lading[0] ?? labels.numbers.bookings[0] ?? ''}`.trim();
      bytes = Buffer.from(renderEmail(r, i, subject, pdf ? 'Please find the document attached.' : renderText(r, lines), pdf));
    } else bytes = await renderPdf(r, lines);
    docs.push({ name, format, layout, contentType: CONTENT_TYPES[format], bytes, labels });
  }
  return docs;
}

/** An image of the PDF's first page, as pdftoppm renders it (200 dpi, grey: a fax-quality scan). */
export async function renderImage(pdf: Uint8Array, format: 'png' | 'jpeg' | 'tiff'): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-docs-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), pdf);
    await promisify(execFile)('pdftoppm', ['-r', '200', '-gray', '-f', '1', '-l', '1', '-singlefile', `-${format}`, path.join(dir, 'in.pdf'), path.join(dir, 'out')]);
    return await readFile(path.join(dir, `out.${format === 'jpeg' ? 'jpg' : format === 'tiff' ? 'tif' : format}`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const EXTENSIONS: Readonly<Record<Format, string>> = { pdf: 'pdf', text: 'txt', eml: 'eml', png: 'png', jpeg: 'jpg', tiff: 'tif' };

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: path.join(tmpdir(), 'svc-documents') }, seed: { type: 'string', default: '15' }, count: { type: 'string', default: '240' } } });
  const docs = await generateDocuments({ seed: Number(values.seed), count: Number(values.count) });
  await mkdir(values.out, { recursive: true });
  let images = 0;
  for (const d of docs) {
    let bytes = d.bytes;
    if (d.format === 'png' || d.format === 'jpeg' || d.format === 'tiff') {
      try {
        bytes = await renderImage(d.bytes, d.format);
        images++;
      } catch (err) {
        process.stderr.write(`${d.name}: no image (${(err as Error).message}); pdftoppm (poppler-utils) renders them\n`);
        continue;
      }
    }
    await writeFile(path.join(values.out, `${d.name}.${EXTENSIONS[d.format]}`), bytes);
    await writeFile(path.join(values.out, `${d.name}.labels.json`), JSON.stringify(d.labels, null, 2) + '\n');
  }
  process.stdout.write(`${docs.length} documents (${images} images) in ${values.out}\n`);
}
