"""Detection views: each finds private entities in text as typed spans.

A view implements :class:`~core.detect.base.DetectionView`; fusion combines
their spans, recording which views found each one.
"""

from core.detect.base import DetectionView, Detector

__all__ = ["DetectionView", "Detector"]
