/**
 * Every page of a PDF (react-pdf, with its text layer so the words can be selected and read by a
 * screen reader). Loaded lazily with the terms modal: pdf.js is large and only some users ever
 * see a terms document. Pages render at the declared scale, narrower when the window is.
 */
import { useEffect, useRef, useState } from 'react';
import { Document, Page, pdfjs } from 'react-pdf';
import 'react-pdf/dist/Page/AnnotationLayer.css';
import 'react-pdf/dist/Page/TextLayer.css';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

/** Width of an A4 page in PDF points. */
const A4_WIDTH = 595;

export interface PdfViewerProps {
  file: Blob;
  scale: number;
  loading: string;
  failed: string;
  pageLabel: (page: number, pages: number) => string;
  onLoadError: () => void;
  onLoaded: () => void;
}

export default function PdfViewer({ file, scale, loading, failed, pageLabel, onLoadError, onLoaded }: PdfViewerProps) {
  const box = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState(0);
  const [boxWidth, setBoxWidth] = useState<number | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setBoxWidth(Math.floor(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // the declared scale, unless the box is narrower than the page at that scale
  const fits = boxWidth === null || boxWidth >= A4_WIDTH * scale;
  return (
    <div ref={box} className="pdf-viewer" data-testid="pdf-viewer">
      <Document
        file={file}
        loading={<p className="text-secondary p-3">{loading}</p>}
        error={<p className="text-danger p-3">{failed}</p>}
        onLoadSuccess={(doc) => {
          setPages(doc.numPages);
          onLoaded();
        }}
        onLoadError={onLoadError}
      >
        {Array.from({ length: pages }, (_, i) => (
          <div key={i} className="pdf-page" aria-label={pageLabel(i + 1, pages)}>
            <Page pageNumber={i + 1} scale={fits ? scale : undefined} width={fits ? undefined : boxWidth!} />
          </div>
        ))}
      </Document>
    </div>
  );
}
