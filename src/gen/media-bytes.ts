// The real files behind file-backed media records: tiny but valid PNG, PDF and text.


/** A 1×1 RGBA PNG (70 bytes, chunk CRCs checked). */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A one-page PDF with a correct xref table, so PDF tools accept it too. */
function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const ANFAHRT_TXT = Buffer.from(
  [
    'Anfahrt zum Hörsaalzentrum',
    '',
    'U6 bis Station Alser Straße, danach etwa 5 Minuten zu Fuß über die Spitalgasse.',
    'Straßenbahn 5 und 33 bis Lazarettgasse.',
    'Parkmöglichkeiten sind nur eingeschränkt vorhanden.',
    '',
  ].join('\n'),
  'utf8',
);

export interface MediaFile {
  path: string;
  data: Buffer;
  mimetype: string;
}

export const MEDIA_FILES: Record<'png' | 'pdf' | 'txt', MediaFile> = {
  png: { path: 'media/files/meduni-logo.png', data: PNG_1X1, mimetype: 'image/png' },
  pdf: { path: 'media/files/programm-beispiel.pdf', data: tinyPdf(), mimetype: 'application/pdf' },
  txt: { path: 'media/files/anfahrt.txt', data: ANFAHRT_TXT, mimetype: 'text/plain' },
};
