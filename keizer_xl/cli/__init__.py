"""The `keizer-xl` command line (`main`) and its built-in example (`demo`)."""
