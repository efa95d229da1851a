"""Time-domain full-wave Maxwell (`analysisType: "em-time"`): the E-field wave equation on HCurl."""
