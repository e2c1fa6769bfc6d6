package tools

import "os"

const listSeparator = os.PathListSeparator
