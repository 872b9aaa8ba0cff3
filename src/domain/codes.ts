// The shapes of the codes clients name places and carriers by, for checking what they send
// before it reaches a query. Both are compared in capitals, as svc stores them.

/** A UN/LOCODE: a two-letter country code and three letters or digits 2 to 9 (USLAX, DEHAM, CNSZX). */
export const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

/** A SCAC as svc's shipping lines carry them: four letters or digits (MAEU, and a few like 11DX). */
export const SCAC = /^[A-Z0-9]{4}$/;
