"""Making the reader's models: synthetic scenes, training, quantization, evaluation.

Serving (:mod:`vision.reader` and the modules it imports) never imports this package; the
Ultralytics, torch and onnx of the train extra are imported inside its functions, only here.
"""
