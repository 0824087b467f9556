from smriti.console import main

main()
